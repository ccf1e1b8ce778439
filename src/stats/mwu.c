/*
 * stats/mwu.c - being written; see the header for the contract.
 */
#include "perfreg/mwu.h"
