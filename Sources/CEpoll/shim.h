#pragma once
// Linux's epoll, which glibc's Swift module does not export.
#include <sys/epoll.h>
