/*
 * tests/run/progs/sendfd.c PATH - hands its standard output to whoever
 * listens on the Unix socket PATH (SCM_RIGHTS, as ssh's ControlMaster or
 * systemd-run --pipe are handed a command's stdio), prints "first" and
 * exits: the listener, outside the command's process tree, keeps a
 * writer of the run's output pipe (test_spawn's test_no_leak_foreign).
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct sockaddr_un a;
	struct msghdr m;
	struct iovec iov;
	struct cmsghdr *c;
	char byte = 'x', ctl[CMSG_SPACE(sizeof(int))];
	int s, fd = 1;

	if (argc != 2 || strlen(argv[1]) >= sizeof(a.sun_path))
		return 2;
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, argv[1], strlen(argv[1]) + 1);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    connect(s, (struct sockaddr *)&a, sizeof(a)) != 0)
		return 3;
	memset(&m, 0, sizeof(m));
	memset(ctl, 0, sizeof(ctl));
	iov.iov_base = &byte;
	iov.iov_len = 1;
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(s, &m, 0) != 1)
		return 4;
	close(s);
	puts("first");
	return 0;
}
