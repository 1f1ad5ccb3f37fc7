/* SPDX-License-Identifier: MIT */
/*
 * late-daemon.c: a process that outlives the -c process that started it
 * (tests/shell/syscall-linger.sh).
 *
 *	late-daemon GO OUT [HOLD]
 *
 * Forks a daemon and exits (once file HOLD exists, if named).  The daemon
 * lets go of its terminal and standard files (as a daemon does), waits
 * for file GO to exist, then write(2)s to file OUT and says there whether
 * the write worked: "write ok", or the error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char msg[128];
	int fd;

	if (argc != 3 && argc != 4)
		return 2;
	if (fork() != 0) {
		while (argc == 4 && access(argv[3], F_OK) != 0)
			usleep(10000);
		return 0;
	}
	(void) setsid();
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		(void) dup2(fd, 0);
		(void) dup2(fd, 1);
		(void) dup2(fd, 2);
		(void) close(fd);
	}
	while (access(argv[1], F_OK) != 0)
		usleep(10000);
	if ((fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return 1;
	if (write(fd, "write ", 6) == 6)
		(void) snprintf(msg, sizeof (msg), "ok\n");
	else
		(void) snprintf(msg, sizeof (msg), "failed: %s\n",
		    strerror(errno));
	(void) !write(fd, msg, strlen(msg));
	(void) close(fd);
	return 0;
}
