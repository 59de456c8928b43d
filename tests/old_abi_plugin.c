/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A plugin built against the ABI before this one, whose type table is laid
 * out otherwise (ABI 1 had no flags): the host must refuse it by name
 * before reading past the version.
 */
#include <sectorsim/sectorsim.h>

static const struct ss_component_ops old_ops = { 0 };

static const struct ss_component_type old_type = {
	.abi_version = SS_ABI_VERSION - 1,
	.name = "old_component",
	.summary = "Test: a type with the wrong ABI version",
	.ops = &old_ops,
	.instance_size = sizeof(struct ss_component),
};

SS_PLUGIN_ENTRY(old_abi)
{
	return ss_registry_add(r, &old_type, error);
}
