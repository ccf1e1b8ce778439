/*
 * stats/distrib.c - being written; see the header for the contract.
 */
#include "perfreg/distrib.h"
