/*
 * stats/describe.c - being written; see the header for the contract.
 */
#include "perfreg/describe.h"
