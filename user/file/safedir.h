/* SPDX-License-Identifier: MIT */
/*
 * A directory that no other user can steer, for root's own state: path
 * (absolute, no "." or "..") opened from / one component at a time with
 * O_NOFOLLOW, each parent a directory owned by root or this user and
 * writable by nobody else unless sticky (/tmp), the last one this user's
 * with no group or other bits; with create, the missing ones made (0755,
 * the last 0700). Then used by descriptor only: a swap of names after the
 * walk changes nothing. A trailing slash is no way around it.
 */
#ifndef LATCTL_SAFEDIR_H
#define LATCTL_SAFEDIR_H

/* The directory's descriptor (O_RDONLY|O_DIRECTORY), or -EINVAL (not an
 * absolute path of names), -ENOTDIR (a symlink or no directory on the
 * way), -EPERM (an owner or mode above), other -errno. */
int lat_safedir_open(const char *path, int create);

#endif /* LATCTL_SAFEDIR_H */
