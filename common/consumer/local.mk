# common/consumer/local.mk: see common/consumer/ (sources added as they land)
