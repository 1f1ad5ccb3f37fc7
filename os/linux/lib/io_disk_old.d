/* SPDX-License-Identifier: MIT */
/*
 * io_disk_old.d: io_disk.d for kernels whose request queue has no disk
 * (before Linux 5.15): the request's rq_disk.
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member request.rq_disk
#pragma D depends_on member !request_queue.disk

typedef struct dt_disk {
	struct gendisk *d;
} dt_disk_t;

translator dt_disk_t < struct request *R > {
	d = R->rq_disk;
};
