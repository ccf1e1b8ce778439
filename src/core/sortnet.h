/*
 * core/sortnet.h - the sorting network of the radix sort's leaves
 * (core/sample.c), inside the library; declared here for its test.
 */
#ifndef PERFREG_CORE_SORTNET_H
#define PERFREG_CORE_SORTNET_H

#include <stdint.h>

/* Sorts k[0, 16) ascending, in place, with 60 compare-exchanges. */
void pr_sort_net16(uint64_t *k);

#endif
