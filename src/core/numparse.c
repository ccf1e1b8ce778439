/*
 * core/numparse.c - being written; see the header for the contract.
 */
#include "perfreg/numparse.h"
