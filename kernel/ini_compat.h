/* SPDX-License-Identifier: BSD-3-Clause */
/* Debian's libiniparser-dev puts the header in iniparser/ and ships no .pc. */
#ifndef SS_INI_COMPAT_H
#define SS_INI_COMPAT_H

#include "config.h"
#if defined(HAVE_INIPARSER_INIPARSER_H)
#include <iniparser/iniparser.h>
#else
#include <iniparser.h>
#endif

#endif
