/* Warm helpers' plumbing, in C: Swift cannot spell the CMSG_ macros, and these system headers
   are read here alone, with _GNU_SOURCE, so that no module map sees them twice, once with it
   and once without (clang then refuses their structs, such as fd_set, as two definitions). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memery_helper_ipc.h"


/* A warm helper's jobs travel as one message each on a socket, with the descriptors of the
   job's memory files (SCM_RIGHTS): Swift cannot spell the CMSG_ macros. At most 4. */
long memery_send_with_descriptors(int socket, const void *bytes, size_t count, const int *fds, int fdCount) {
    if (fdCount < 0 || fdCount > 4) { errno = EINVAL; return -1; }
    struct iovec io = { .iov_base = (void *)bytes, .iov_len = count };
    char control[CMSG_SPACE(sizeof(int) * 4)];
    memset(control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control,
                              .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)fdCount) };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)fdCount);
    memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)fdCount);
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

/* Receives one such message; the descriptors come closed on exec. A message cut short (its
   bytes or its descriptors) is refused whole: EMSGSIZE, and nothing is left open. */
long memery_receive_with_descriptors(int socket, void *bytes, size_t capacity, int *fds, int maxFds, int *fdCount) {
    struct iovec io = { .iov_base = bytes, .iov_len = capacity };
    char control[CMSG_SPACE(sizeof(int) * 4)];
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    *fdCount = 0;
    long got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (got < 0) return got;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
            if (*fdCount < maxFds) fds[(*fdCount)++] = fd; else close(fd);
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        for (int i = 0; i < *fdCount; i++) close(fds[i]);
        *fdCount = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return got;
}

/* Starts `path` with standard input `input`, standard output and errors on /dev/null, no
   other descriptor of this process, every signal at its default and none blocked (a
   server's ignored SIGPIPE or blocked signals would otherwise be inherited). 0 or errno. */
int memery_spawn_with_input(int *pid, const char *path, char *const argv[], char *const envp[], int input) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_adddup2(&actions, input, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t every, none;
    sigfillset(&every);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &every);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t child = 0;
    int result = posix_spawn(&child, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    *pid = (int)child;
    return result;
}

/* The status waitpid gave, taken apart (the W* macros are not visible to Swift). */
int memery_exited_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
int memery_ending_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
