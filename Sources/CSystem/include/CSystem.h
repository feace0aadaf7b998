#ifndef CONTACTSD_CSYSTEM_H
#define CONTACTSD_CSYSTEM_H

/* System calls the Glibc module leaves out (GNU extensions), declared for Swift. */

/* syncfs(2): flushes everything unwritten on the file system that holds fd. */
extern int syncfs(int fd);

#endif
