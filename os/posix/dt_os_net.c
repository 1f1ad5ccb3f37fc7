/* SPDX-License-Identifier: MIT */
/*
 * dt_os_net.c: the TCP sockets of the metrics endpoint (dt_os.h); the
 * server itself, HTTP and the exposition format are portable
 * (common/dt_metrics.c, common/consumer/dt_metrics_fmt.c).  POSIX
 * sockets (SOCK_CLOEXEC and accept4() are POSIX.1-2024's, which Linux,
 * FreeBSD and illumos have), so every backend builds this one file:
 * os/posix/ holds what backends share.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/dt_os.h"

int
dt_os_net_listen(
    const char *spec, char *bound, size_t boundlen, char *err, size_t errlen)
{
	struct addrinfo hints = {0}, *res = NULL;
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	char host[256], port[32], addr[INET6_ADDRSTRLEN];
	const char *colon = strrchr(spec, ':');
	int fd = -1, on = 1, rc;

	/* "PORT" alone is on the loopback address: never exposed unasked. */
	if (colon == NULL) {
		(void) snprintf(host, sizeof(host), "127.0.0.1");
		(void) snprintf(port, sizeof(port), "%s", spec);
	} else {
		size_t hl = (size_t) (colon - spec);

		if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
			spec++;
			hl -= 2;
		}
		if (hl >= sizeof(host))
			hl = sizeof(host) - 1;
		memcpy(host, spec, hl);
		host[hl] = '\0';
		if (host[0] == '\0')
			(void) snprintf(host, sizeof(host), "127.0.0.1");
		(void) snprintf(port, sizeof(port), "%s", colon + 1);
	}
	if (port[0] == '\0' || strspn(port, "0123456789") != strlen(port) ||
	    atoi(port) > 65535) {
		(void) snprintf(err, errlen, "bad port");
		return -1;
	}
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		(void) snprintf(err, errlen, "%s", gai_strerror(rc));
		return -1;
	}
	/* Non-blocking: a connection reset after poll() hangs no accept. */
	fd = socket(
	    res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
	    bind(fd, res->ai_addr, res->ai_addrlen) != 0 ||
	    listen(fd, 128) != 0 ||
	    getsockname(fd, (struct sockaddr *) &ss, &sslen) != 0) {
		(void) snprintf(err, errlen, "%s", strerror(errno));
		if (fd >= 0)
			(void) close(fd);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *) &ss;

		(void) inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		(void) snprintf(
		    bound, boundlen, "[%s]:%u", addr, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *) &ss;

		(void) inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof(addr));
		(void) snprintf(
		    bound, boundlen, "%s:%u", addr, ntohs(s4->sin_port));
	}
	return fd;
}

int
dt_os_net_poll(dt_os_netpoll_t *pfds, size_t n, int timeout_ms)
{
	struct pollfd one, *pfd = n <= 1 ? &one : calloc(n, sizeof(*pfd));
	int rc;

	if (pfd == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		pfd[i].fd = pfds[i].fd;
		pfd[i].events =
		    (short) (((pfds[i].events & DT_OS_NET_IN) ? POLLIN : 0) |
			((pfds[i].events & DT_OS_NET_OUT) ? POLLOUT : 0));
		pfd[i].revents = 0;
	}
	while ((rc = poll(pfd, (nfds_t) n, timeout_ms)) < 0 && errno == EINTR)
		;
	for (size_t i = 0; i < n; i++) {
		short r = pfd[i].revents;

		pfds[i].revents = (short) (((r & POLLIN) ? DT_OS_NET_IN : 0) |
		    ((r & POLLOUT) ? DT_OS_NET_OUT : 0) |
		    ((r & (POLLERR | POLLHUP | POLLNVAL)) ? DT_OS_NET_ERR : 0));
	}
	if (pfd != &one)
		free(pfd);
	return rc;
}

int
dt_os_net_accept(int lfd)
{
	int fd;

	/* Non-blocking, so that no client's slowness is the server's. */
	while (
	    (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) < 0 &&
	    errno == EINTR)
		;
	return fd;
}

long
dt_os_net_recv(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = recv(fd, buf, len, 0)) < 0 && errno == EINTR)
		;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return DT_OS_NET_AGAIN;
	return (long) n;
}

long
dt_os_net_send(int fd, const void *buf, size_t len)
{
	ssize_t n;

	/* A client gone away is not a reason to die of SIGPIPE. */
	while ((n = send(fd, buf, len, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	return (long) n;
}

void
dt_os_net_close(int fd)
{
	if (fd >= 0)
		(void) close(fd);
}
