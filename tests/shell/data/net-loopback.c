/*
 * net-loopback.c: a known amount of network traffic over loopback for
 * the tcp and udp provider tests (tests/shell/net-providers.sh).
 *
 *	net-loopback PORT
 *
 * One TCP connection from 127.0.0.1 to a listener on PORT: connected,
 * accepted, 5 bytes each way, closed by the client first, then the
 * server; one connect() to PORT + 1, where nothing listens (refused);
 * then 3 UDP datagrams of 100 bytes from one socket to another bound to
 * PORT, each received.  Exits 0 when all went as described.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in
addr(int port)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof (sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short) port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sin;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sin;
	char buf[100];
	int port, l, c, s, r, one = 1;

	if (argc != 2 || (port = atoi(argv[1])) <= 0 || port >= 65535)
		return 2;
	sin = addr(port);
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one)) < 0 ||
	    bind(l, (struct sockaddr *) &sin, sizeof (sin)) < 0 ||
	    listen(l, 1) < 0 ||
	    (c = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (struct sockaddr *) &sin, sizeof (sin)) < 0 ||
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

	sin = addr(port + 1);
	if ((c = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(c, (struct sockaddr *) &sin, sizeof (sin)) == 0) {
		fprintf(stderr, "port %d is open\n", port + 1);
		return 1;
	}
	close(c);

	sin = addr(port);
	memset(buf, 'u', sizeof (buf));
	if ((r = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
	    bind(r, (struct sockaddr *) &sin, sizeof (sin)) < 0 ||
	    (c = socket(AF_INET, SOCK_DGRAM, 0)) < 0) {
		perror("udp");
		return 1;
	}
	for (int i = 0; i < 3; i++)
		if (sendto(c, buf, sizeof (buf), 0, (struct sockaddr *) &sin,
		    sizeof (sin)) != sizeof (buf) ||
		    recv(r, buf, sizeof (buf), 0) != sizeof (buf)) {
			perror("udp");
			return 1;
		}
	close(c);
	close(r);
	return 0;
}
