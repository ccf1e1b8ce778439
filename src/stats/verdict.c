/*
 * stats/verdict.c - being written; see the header for the contract.
 */
#include "perfreg/verdict.h"
