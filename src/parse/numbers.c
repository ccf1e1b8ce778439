/*
 * parse/numbers.c - being written; see the header for the contract.
 */
#include "perfreg/read.h"
