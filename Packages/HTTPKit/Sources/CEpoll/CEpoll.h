// epoll_create1, epoll_ctl, epoll_wait and struct epoll_event for ReadinessSet (Linux only).
#ifndef MSA_CEPOLL_H
#define MSA_CEPOLL_H

#include <sys/epoll.h>

#endif
