/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_io.c: the io provider -- block device I/O requests, with
 * DTrace's stable bufinfo_t, devinfo_t and fileinfo_t (os/linux/lib/io.d
 * translates them from the kernel's struct request).
 *
 *	io:vmlinux::start	rawtp block_rq_issue(struct request *): a
 *				request is handed to the device's driver
 *	io:vmlinux::done	rawtp block_rq_complete(struct request *,
 *				blk_status_t, unsigned int): the device
 *				completed (part of) a request
 *
 * args[0], args[1] and args[2] are all the request, translated to
 * bufinfo_t *, devinfo_t * and fileinfo_t *.  Requests exist for the
 * devices with a request queue (SCSI, NVMe, virtio, ...); I/O to
 * stacked devices (device-mapper, md) shows as the requests of the disks
 * beneath them.  Linux does not know a request's file: fileinfo_t says
 * "<unknown>".
 *
 * wait-start and wait-done (a thread starts and stops waiting for an
 * I/O) have no tracepoint in Linux, so they are not listed.
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_IO_ARGS { \
	DT_KPROV_A_RAW(0, "struct request *", "bufinfo_t *"), \
	DT_KPROV_A_RAW(0, "struct request *", "devinfo_t *"), \
	DT_KPROV_A_RAW(0, "struct request *", "fileinfo_t *"), \
}

static const dt_kprov_probe_t dt_io_probes[] = {
	{ .kp_name = "start", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "block", .kp_event = "block_rq_issue",
	  .kp_args = DT_IO_ARGS },
	{ .kp_name = "done", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "block", .kp_event = "block_rq_complete",
	  .kp_args = DT_IO_ARGS },
};

static const dt_kprov_t dt_io_prov = {
	"io", dt_io_probes, sizeof (dt_io_probes) / sizeof (dt_io_probes[0])
};

int
dt_prov_io_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_io_prov);
}
