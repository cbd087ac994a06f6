#pragma once
// Linux's epoll and eventfd, which glibc's Swift module does not export.
#include <sys/epoll.h>
#include <sys/eventfd.h>
