/*
 * stats/ratio.c - being written; see the header for the contract.
 */
#include "perfreg/ratio.h"
