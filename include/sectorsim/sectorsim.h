/* SPDX-License-Identifier: BSD-3-Clause */
/* Everything a component or plugin needs. */
#ifndef SECTORSIM_H
#define SECTORSIM_H

#include <sectorsim/engine.h>
#include <sectorsim/port.h>
#include <sectorsim/component.h>

#endif
