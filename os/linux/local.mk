# os/linux/local.mk: the Linux backend.  No sources yet; see README.md.
EXTRA_DIST += %reldir%/README.md
