#pragma once
// glibc's heap tuning (mallopt, malloc_trim), which its Swift module does not export.
#include <malloc.h>
