/*
 * io.d: the io provider's stable types -- bufinfo_t (an I/O request),
 * devinfo_t (its device) and fileinfo_t (its file) as DTrace defines
 * them -- and their translators from the Linux kernel's struct request
 * (os/linux/prov/dt_prov_io.c).
 *
 * b_flags says B_READ or B_WRITE (Linux's odd operations write: write,
 * flush, discard, ...); b_blkno and b_lblkno are the request's first
 * 512-byte sector; b_edev and dev_major/dev_minor are the disk's (the
 * kernel's dev_t encoding, major << 20 | minor).  dev_statname is the
 * name iostat(1) and /proc/diskstats use ("vda", "nvme0n1");
 * dev_pathname its /dev node.  A request knows neither its file nor an
 * error before it completes: fileinfo_t's strings are "<unknown>", its
 * numbers 0, and b_error and b_resid are 0.
 */
#pragma D depends_on module vmlinux

typedef long long offset_t;	/* a file offset, as DTrace names it */

typedef struct bufinfo {
	int b_flags;		/* flags */
	size_t b_bcount;	/* number of bytes */
	caddr_t b_addr;		/* buffer address */
	uint64_t b_blkno;	/* expanded block # on device */
	uint64_t b_lblkno;	/* block # on device */
	size_t b_resid;		/* # of bytes not transferred */
	size_t b_bufsize;	/* size of allocated buffer */
	caddr_t b_iodone;	/* I/O completion routine */
	int b_error;		/* expanded error field */
	dev_t b_edev;		/* extended device */
} bufinfo_t;

typedef struct devinfo {
	int dev_major;		/* major number */
	int dev_minor;		/* minor number */
	int dev_instance;	/* instance number */
	string dev_name;	/* name of device */
	string dev_statname;	/* name of device + instance/minor */
	string dev_pathname;	/* pathname of device */
} devinfo_t;

typedef struct fileinfo {
	string fi_name;		/* name (basename of fi_pathname) */
	string fi_dirname;	/* directory (dirname of fi_pathname) */
	string fi_pathname;	/* full pathname */
	offset_t fi_offset;	/* offset within file */
	string fi_fs;		/* filesystem */
	string fi_mount;	/* mount point of file system */
	int fi_oflags;		/* open(2) flags for file descriptor */
} fileinfo_t;

inline int B_BUSY = 0x0001;
inline int B_DONE = 0x0002;
inline int B_ERROR = 0x0004;
inline int B_PAGEIO = 0x0010;
inline int B_PHYS = 0x0020;
inline int B_READ = 0x0040;
inline int B_WRITE = 0x0100;
inline int B_ASYNC = 0x0400;

translator bufinfo_t < struct request *R > {
	b_flags = (R->cmd_flags & 1) != 0 ? B_WRITE : B_READ;
	b_bcount = R->__data_len;
	b_addr = 0;
	b_blkno = R->__sector;
	b_lblkno = R->__sector;
	b_resid = 0;
	b_bufsize = R->__data_len;
	b_iodone = (caddr_t)R->end_io;
	b_error = 0;
	b_edev = R->q->disk->major << 20 | R->q->disk->first_minor;
};

translator devinfo_t < struct request *R > {
	dev_major = R->q->disk->major;
	dev_minor = R->q->disk->first_minor;
	dev_instance = R->q->disk->minors != 0 ?
	    R->q->disk->first_minor / R->q->disk->minors : 0;
	dev_name = R->q->disk->fops->owner != 0 ?
	    stringof(R->q->disk->fops->owner->name) :
	    stringof(R->q->disk->disk_name);
	dev_statname = stringof(R->q->disk->disk_name);
	dev_pathname = strjoin("/dev/", stringof(R->q->disk->disk_name));
};

translator fileinfo_t < struct request *R > {
	fi_name = "<unknown>";
	fi_dirname = "<unknown>";
	fi_pathname = "<unknown>";
	fi_offset = 0;
	fi_fs = "<unknown>";
	fi_mount = "<unknown>";
	fi_oflags = 0;
};
