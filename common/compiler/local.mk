# common/compiler/local.mk: see common/compiler/ (sources added as they land)
