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
 * from the kernel's struct file.
 */
#pragma D depends_on module vmlinux
/*
 * Where a request's disk is differs between kernels: xlate<dt_disk_t>(R).d
 * is it, from whichever of the two files is loaded.
 */
#pragma D depends_on library io_disk.d
#pragma D depends_on library io_disk_old.d

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
 * fds[fd]: the file descriptor fd of the current process, as fileinfo_t.
 * An fd that is not open gives "<none>" strings and 0s.
 *
 * The path is rebuilt from the file's dentry and its mount as far as D
 * can follow them without loops (and the BPF engine fit them in one
 * program): three names up from the file, one from its mount point and
 * one from its mount's; what lies beyond shows as "/...".  A file with no
 * name (a pipe, a socket, an anonymous inode) is "<unknown>".
 */
inline string __dt_dname[struct dentry *d] =
    d == d->d_parent ? "" : strjoin("/", stringof(d->d_name.name));
inline string __dt_dpath1[struct dentry *d] =
    strjoin(d->d_parent == d->d_parent->d_parent ? "" : "/...",
    __dt_dname[d]);
inline string __dt_dpath3[struct dentry *d] =
    strjoin(strjoin(strjoin(
    d->d_parent->d_parent->d_parent ==
    d->d_parent->d_parent->d_parent->d_parent ? "" : "/...",
    __dt_dname[d->d_parent->d_parent]),
    __dt_dname[d->d_parent]),
    __dt_dname[d]);
/* The mount a struct vfsmount is part of. */
inline struct mount *__dt_mount[struct vfsmount *v] =
    (struct mount *)((uintptr_t)v - offsetof(struct mount, mnt));
/* Whether a mount is at "/": the root, or over the root's root. */
inline int __dt_mroot[struct mount *m] = m == m->mnt_parent ||
    (m->mnt_parent == m->mnt_parent->mnt_parent &&
    m->mnt_mountpoint == m->mnt_mountpoint->d_parent);
/* Where a mount is mounted: "" for "/", else its path. */
inline string __dt_mpath[struct mount *m] =
    __dt_mroot[m] ? "" :
    strjoin(__dt_mroot[m->mnt_parent] ? "" :
    strjoin(__dt_mroot[m->mnt_parent->mnt_parent] ? "" : "/...",
    __dt_dpath1[m->mnt_parent->mnt_mountpoint]),
    __dt_dpath1[m->mnt_mountpoint]);
inline string __dt_fpath[struct file *F] =
    strjoin(__dt_mpath[__dt_mount[F->f_path.mnt]],
    __dt_dpath3[F->f_path.dentry]);
/* Whether a file is "/" itself. */
inline int __dt_isroot[struct file *F] =
    __dt_mroot[__dt_mount[F->f_path.mnt]] &&
    F->f_path.dentry == F->f_path.dentry->d_parent;

translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    stringof(F->f_path.dentry->d_name.name);
	fi_dirname = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    dirname(__dt_fpath[F]);
	fi_pathname = F == NULL ? "<none>" :
	    F->f_path.dentry->d_name.name[0] == '\0' ? "<unknown>" :
	    __dt_isroot[F] ? "/" : __dt_fpath[F];
	fi_offset = F == NULL ? 0 : F->f_pos;
	fi_fs = F == NULL ? "<none>" :
	    stringof(F->f_path.dentry->d_sb->s_type->name);
	fi_mount = F == NULL ? "<none>" :
	    __dt_mroot[__dt_mount[F->f_path.mnt]] ? "/" :
	    __dt_mpath[__dt_mount[F->f_path.mnt]];
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    curthread->files != NULL && fd >= 0 &&
    fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : (struct file *)NULL);
