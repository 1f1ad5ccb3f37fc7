/* SPDX-License-Identifier: MIT */
/*
 * ip-loopback.c: known packets over loopback for the ip and tcp
 * provider test (tests/shell/ip-provider.sh).
 *
 *	ip-loopback 4|6 PORT N
 *
 * Over IPv4 (127.0.0.1) or IPv6 (::1): N UDP datagrams of 1234 bytes
 * from one socket to another bound to PORT, each received; then one TCP
 * connection to a listener on PORT + 1: 5 bytes each way, closed by the
 * client first; then one connect() to PORT + 2, where nothing listens
 * (refused).  Exits 0 when all went as described.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int family;

/* The loopback address of the family, at port. */
static socklen_t
addr(struct sockaddr_storage *ss, int port)
{
	memset(ss, 0, sizeof (*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *) ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short) port);
		s6->sin6_addr = in6addr_loopback;
		return sizeof (*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *) ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons((unsigned short) port);
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof (*s4);
	}
}

int
main(int argc, char **argv)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char buf[1234];
	int port, n, r, c, l, s, one = 1;

	if (argc != 4 || (port = atoi(argv[2])) <= 0 || port >= 65535 ||
	    (n = atoi(argv[3])) < 0)
		return 2;
	family = atoi(argv[1]) == 6 ? AF_INET6 : AF_INET;

	len = addr(&ss, port);
	memset(buf, 'u', sizeof (buf));
	if ((r = socket(family, SOCK_DGRAM, 0)) < 0 ||
	    bind(r, (struct sockaddr *) &ss, len) < 0 ||
	    (c = socket(family, SOCK_DGRAM, 0)) < 0) {
		perror("udp");
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (sendto(c, buf, sizeof (buf), 0, (struct sockaddr *) &ss,
		    len) != sizeof (buf) ||
		    recv(r, buf, sizeof (buf), 0) != sizeof (buf)) {
			perror("udp");
			return 1;
		}
	close(c);
	close(r);

	len = addr(&ss, port + 1);
	if ((l = socket(family, SOCK_STREAM, 0)) < 0 ||
	    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one)) < 0 ||
	    bind(l, (struct sockaddr *) &ss, len) < 0 || listen(l, 1) < 0 ||
	    (c = socket(family, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (struct sockaddr *) &ss, len) < 0 ||
	    (s = accept(l, NULL, NULL)) < 0 ||
	    write(c, "hello", 5) != 5 || read(s, buf, 5) != 5 ||
	    write(s, "world", 5) != 5 || read(c, buf, 5) != 5) {
		perror("tcp");
		return 1;
	}
	close(c);
	if (read(s, buf, 1) != 0)	/* the client's FIN */
		return 1;
	close(s);
	close(l);

	len = addr(&ss, port + 2);
	if ((c = socket(family, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (struct sockaddr *) &ss, len) == 0) {
		fprintf(stderr, "port %d is open\n", port + 2);
		return 1;
	}
	close(c);
	return 0;
}
