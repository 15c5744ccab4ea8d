/*-------------------------------------------------------------------------
 *
 * sweepable.c
 *		The SQL-callable face of sweep/policy.c: sweepable_settings(),
 *		sweepable_server_settings() and sweepable_load() list what a sweep
 *		may vary or fix; _data_loss(), _int_setting() and _setting_number()
 *		read a setting's value for the views, as the GUC machinery does.
 *
 * IDENTIFICATION
 *	  src/api/sweepable.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "sweep/policy.h"

PG_FUNCTION_INFO_V1(wp_sweepable_settings);
PG_FUNCTION_INFO_V1(wp_sweepable_load);
PG_FUNCTION_INFO_V1(wp_sweepable_server_settings);

/* The names of the parameters of some kinds, as a text[]. */
static Datum
wp_param_array(WpParamKind a, WpParamKind b)
{
	const char **names = palloc(sizeof(char *) * wp_param_count());
	Datum	   *elems = palloc(sizeof(Datum) * wp_param_count());
	int			n = wp_param_names(a, b, names);

	for (int i = 0; i < n; i++)
		elems[i] = CStringGetTextDatum(names[i]);
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * sweepable_settings() returns text[]: the settings a sweep can vary or fix.
 */
Datum
wp_sweepable_settings(PG_FUNCTION_ARGS)
{
	return wp_param_array(WP_PARAM_SESSION, WP_PARAM_SERVER);
}

/*
 * sweepable_server_settings() returns text[]: those applied server-wide.
 */
Datum
wp_sweepable_server_settings(PG_FUNCTION_ARGS)
{
	return wp_param_array(WP_PARAM_SERVER, WP_PARAM_SERVER);
}

/*
 * sweepable_load() returns text[]: the load's pseudo-parameters.
 */
Datum
wp_sweepable_load(PG_FUNCTION_ARGS)
{
	return wp_param_array(WP_PARAM_LOAD, WP_PARAM_LOAD);
}

PG_FUNCTION_INFO_V1(wp_data_loss_sql);

/*
 * _data_loss(setting, value) returns text: wp_data_loss, for the views.
 */
Datum
wp_data_loss_sql(PG_FUNCTION_ARGS)
{
	const char *label = wp_data_loss(text_to_cstring(PG_GETARG_TEXT_PP(0)),
									 text_to_cstring(PG_GETARG_TEXT_PP(1)));

	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

PG_FUNCTION_INFO_V1(wp_int_setting_sql);

/*
 * _int_setting(value) returns int: an integer setting's value as the GUC
 * machinery reads it ('1.5' is 2, '1e1' is 10, '0x5' is 5), NULL when it
 * is not one.  The views read settings a sweep recorded as typed, so a
 * cast would fail for every reader on a value the server took.
 */
Datum
wp_int_setting_sql(PG_FUNCTION_ARGS)
{
	int			result;

	if (!parse_int(text_to_cstring(PG_GETARG_TEXT_PP(0)), &result, 0, NULL))
		PG_RETURN_NULL();
	PG_RETURN_INT32(result);
}

PG_FUNCTION_INFO_V1(wp_setting_number_sql);

/*
 * _setting_number(setting, value) returns float8: a value of a number
 * setting in the setting's own unit, read by the GUC machinery ('1s' for
 * wal_writer_delay is 1000, its unit being ms), or of a load parameter (a
 * whole number); NULL for the others (an enum, a bool, a string, an
 * unknown name): the chart's numeric x axis.
 */
Datum
wp_setting_number_sql(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *value = text_to_cstring(PG_GETARG_TEXT_PP(1));
	int			flags;
	int			i;
	double		d;

	switch (wp_param_kind(name))
	{
		case WP_PARAM_LOAD:
			if (parse_int(value, &i, 0, NULL))
				PG_RETURN_FLOAT8(i);
			/* a rate: transactions per second, a fraction allowed */
			if (strcmp(name, "rate") == 0 && parse_real(value, &d, 0, NULL) && isfinite(d))
				PG_RETURN_FLOAT8(d);
			break;
		case WP_PARAM_SESSION:
		case WP_PARAM_SERVER:
			/* parse_real reads integer settings too, units and all */
			flags = GetConfigOptionFlags(name, true);
			if (parse_real(value, &d, flags, NULL) && !isnan(d) && !isinf(d))
				PG_RETURN_FLOAT8(d);
			break;
		case WP_PARAM_NONE:
		case WP_PARAM_CONFIG:
			break;
	}
	PG_RETURN_NULL();
}
