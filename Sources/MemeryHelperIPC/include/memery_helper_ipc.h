/* A warm helper's plumbing (MemeryPixels/WarmHelpers.swift): jobs as messages carrying
   descriptors, and a helper started with a socket for its standard input. Plain C types
   only: this header includes no system header, so it changes no other module's view of them. */
#ifndef MEMERY_HELPER_IPC_H
#define MEMERY_HELPER_IPC_H

#include <stddef.h>

/* Sends `count` bytes and `fdCount` descriptors (SCM_RIGHTS) as one message: the bytes sent,
   or -1 with errno. At most 4 descriptors. */
long memery_send_with_descriptors(int socket, const void *bytes, size_t count, const int *fds, int fdCount);

/* Receives one such message; the descriptors come closed on exec. A message cut short (its
   bytes or its descriptors) is refused whole: -1 with EMSGSIZE, and nothing is left open. */
long memery_receive_with_descriptors(int socket, void *bytes, size_t capacity, int *fds, int maxFds, int *fdCount);

/* Starts `path` with standard input `input`, standard output and errors on /dev/null, no
   other descriptor of this process, every signal at its default and none blocked: 0, or
   the errno. */
int memery_spawn_with_input(int *pid, const char *path, char *const argv[], char *const envp[], int input);

/* The status waitpid gave, taken apart (the W* macros are not visible to Swift). */
int memery_exited_status(int status);
int memery_ending_signal(int status);

#endif
