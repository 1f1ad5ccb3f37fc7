# common/dif/local.mk: see common/dif/ (sources added as they land)
