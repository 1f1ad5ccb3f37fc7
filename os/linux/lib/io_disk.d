/* SPDX-License-Identifier: MIT */
/*
 * io_disk.d: the disk of an I/O request, for io.d's translators: its
 * queue's (request_queue's disk, Linux 5.15 and later), or the request's
 * own rq_disk before (io_disk_old.d).  One of the two files is loaded,
 * chosen by the kernel's own types (dt_lib.c).
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member request_queue.disk

typedef struct dt_disk {
	struct gendisk *d;
} dt_disk_t;

translator dt_disk_t < struct request *R > {
	d = R->q->disk;
};
