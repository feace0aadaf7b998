#ifndef CONTACTSD_CSYSTEMD_SHIM_H
#define CONTACTSD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
