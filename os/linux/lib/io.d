/* SPDX-License-Identifier: MIT */
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
 *
 * fds[] gives the current process's open files as fileinfo_t, translated
 * from the kernel's struct file, whose paths d_path() walks.
 */
#pragma D depends_on module vmlinux
/*
 * Where a request's disk is differs between kernels: xlate<dt_disk_t>(R).d
 * is it, from whichever of the two files is loaded.
 */
#pragma D depends_on library io_disk.d
#pragma D depends_on library io_disk_old.d
/* And the open flags whose numbers differ between architectures. */
#pragma D depends_on library io_oflags.d
#pragma D depends_on library io_oflags_arm64.d

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
	b_edev = xlate<dt_disk_t>(R).d->major << 20 |
	    xlate<dt_disk_t>(R).d->first_minor;
};

translator devinfo_t < struct request *R > {
	dev_major = xlate<dt_disk_t>(R).d->major;
	dev_minor = xlate<dt_disk_t>(R).d->first_minor;
	dev_instance = xlate<dt_disk_t>(R).d->minors != 0 ?
	    xlate<dt_disk_t>(R).d->first_minor /
	    xlate<dt_disk_t>(R).d->minors : 0;
	dev_name = xlate<dt_disk_t>(R).d->fops->owner != 0 ?
	    stringof(xlate<dt_disk_t>(R).d->fops->owner->name) :
	    stringof(xlate<dt_disk_t>(R).d->disk_name);
	dev_statname = stringof(xlate<dt_disk_t>(R).d->disk_name);
	dev_pathname = strjoin("/dev/",
	    stringof(xlate<dt_disk_t>(R).d->disk_name));
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

/*
 * The open(2) flags, to test fi_oflags with: the access mode is a number
 * in O_ACCMODE's bits ((fi_oflags & O_ACCMODE) == O_WRONLY), the others
 * single bits.  Linux's numbers; those that differ between architectures
 * come from io_oflags.d.  The kernel keeps the flags an open file goes on
 * obeying: O_CREAT, O_EXCL, O_NOCTTY and O_TRUNC acted at the open and
 * are not kept, and a 64-bit kernel adds O_LARGEFILE to every open.
 * O_RSYNC is O_SYNC on Linux, O_NDELAY O_NONBLOCK.
 */
inline int O_ACCMODE = 0x3;
inline int O_RDONLY = 0x0;
inline int O_WRONLY = 0x1;
inline int O_RDWR = 0x2;
inline int O_CREAT = 0x40;
inline int O_EXCL = 0x80;
inline int O_NOCTTY = 0x100;
inline int O_TRUNC = 0x200;
inline int O_APPEND = 0x400;
inline int O_NONBLOCK = 0x800;
inline int O_NDELAY = 0x800;
inline int O_DSYNC = 0x1000;
inline int O_ASYNC = 0x2000;
inline int O_NOATIME = 0x40000;
inline int O_CLOEXEC = 0x80000;
inline int O_SYNC = 0x101000;
inline int O_RSYNC = 0x101000;
inline int O_PATH = 0x200000;
inline int O_TMPFILE = 0x400000 | O_DIRECTORY;

/*
 * fds[fd]: the file descriptor fd of the current process, as fileinfo_t.
 * An fd that is not open gives "<none>" strings and 0s.
 *
 * The path is d_path()'s: the file's dentry and its mount walked up to
 * the root, as the kernel's d_path() walks them, through every mount.
 * The walk keeps 32 names and takes 40 steps (a mount crossed is one):
 * a deeper path shows its deepest names after "/...", and any path is
 * cut to strsize - 1 bytes.  A file with no name (a pipe, a socket, an
 * anonymous inode) is "<unknown>".
 */
translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    stringof(F->f_path.dentry->d_name.name);
	fi_dirname = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    dirname(d_path(&F->f_path));
	fi_pathname = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    d_path(&F->f_path);
	fi_offset = F == NULL ? 0 : F->f_pos;
	fi_fs = F == NULL ? "<none>" :
	    stringof(F->f_path.dentry->d_sb->s_type->name);
	fi_mount = F == NULL ? "<none>" : d_path(&F->f_path, 1);
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    curthread->files != NULL && fd >= 0 &&
    fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : (struct file *)NULL);
