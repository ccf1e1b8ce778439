/*
 * stats/ttest.c - being written; see the header for the contract.
 */
#include "perfreg/ttest.h"
