/*-------------------------------------------------------------------------
 *
 * configs_request.c
 *		A configuration sweep's values, checked as the caller:
 *		run_sweep('settings', vals) where each value is a JSON object of
 *		settings, a whole configuration per value ('{}', '{"synchronous_commit":
 *		"off"}', '{"fsync": "off"}'), interleaved like the values of any
 *		sweep.
 *
 * Each key is checked exactly as a fixed setting is (values.c): one GUC
 * value, the caller's right to set it, data loss only with
 * accept_data_loss.  The request then holds each value's settings as name
 * and value (sweep/configs.c reads them); the coordinator applies a value's
 * server-wide settings (and puts those it does not set back to what they
 * were before the sweep), and its clients set its session settings.  A
 * value may also set the load's clients.
 *
 * IDENTIFICATION
 *	  src/api/configs_request.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api/configs_request.h"
#include "api/values.h"
#include "sweep/configs.h"
#include "sweep/policy.h"

/* The error context of one value's check. */
static void
wp_config_context(void *arg)
{
	errcontext("value %d of vals", *(int *) arg);
}

/* Do values a and b set the same settings to the same text, and clients? */
static bool
wp_same_config(const WpSweepRequest *req, int a, int b)
{
	if (req->cfg_n[a] != req->cfg_n[b] || req->ivals[a] != req->ivals[b])
		return false;
	for (int i = req->cfg_first[b]; i < req->cfg_first[b] + req->cfg_n[b]; i++)
	{
		const char *v;

		if (!wp_value_sets(req, a, req->cfg[i].name, &v) || strcmp(v, req->cfg[i].value) != 0)
			return false;
	}
	return true;
}

/* One value: a JSON object of settings, into req->cfg. */
static void
wp_request_config(WpSweepRequest *req, int pos, const char *text)
{
	Jsonb	   *jb;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;
	char	   *canon;

	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
	if (!JB_ROOT_IS_OBJECT(jb) || JB_ROOT_IS_SCALAR(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("each value of a settings sweep must be a JSON object of settings, not %s", text),
				 errhint("For example vals => ARRAY['{}', '{\"synchronous_commit\": \"off\"}']: '{}' runs with the settings as they are.")));
	req->cfg_first[pos] = req->ncfg;
	req->cfg_n[pos] = 0;
	req->ivals[pos] = 0;

	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *value;
		WpParamKind kind;
		WpSetting  *s;

		if (tok == WJB_KEY)
		{
			key = pnstrdup(v.val.string.val, v.val.string.len);
			continue;
		}
		if (tok != WJB_VALUE)
			continue;
		value = wp_jsonb_text(&v);
		if (value == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("value %s gives %s no value", text, key),
					 errhint("Leave a setting out of a value to run it as it is.")));
		kind = wp_param_kind(key);
		if (strcmp(key, "clients") == 0)
		{
			req->ivals[pos] = wp_check_load_value(key, value);
			continue;
		}
		if (kind == WP_PARAM_LOAD || strcmp(key, "sql") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("a value of a settings sweep cannot set %s", key),
					 errdetail("A value may set clients and the settings walpressure varies; %s is the same for the whole sweep.", key),
					 errhint("Give %s in run_sweep's %s argument.", key,
							 strcmp(key, "iops_cap") == 0 || strcmp(key, "rate") == 0 ? key : "settings")));
		if (kind != WP_PARAM_SESSION && kind != WP_PARAM_SERVER)
			wp_refuse_setting(key, "settings");
		for (int f = 0; f < req->nfixed; f++)
			if (strcmp(req->fixed[f].name, key) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s is set both by a value of the sweep and by settings", key),
						 errhint("Fix a setting for every step in settings, or vary it in the values; not both.")));
		wp_check_setting_value(kind, key, value, req->accept_data_loss);
		if (req->cfg_n[pos] >= WP_CONFIG_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("a value of a settings sweep sets at most %d settings", WP_CONFIG_MAX)));
		if (req->ncfg >= WP_CONFIG_POOL)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the values of a settings sweep set at most %d settings together", WP_CONFIG_POOL)));
		s = &req->cfg[req->ncfg++];
		req->cfg_n[pos]++;
		strlcpy(s->name, key, WP_NAME_MAX);
		strlcpy(s->value, value, WP_VALUE_MAX);
		s->kind = kind;
	}

	/* the value as results, report and plot show it: jsonb's own text */
	canon = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
	if (strlen(canon) >= WP_VALUE_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a value of a settings sweep takes at most %d bytes", WP_VALUE_MAX - 1)));
	for (int i = 0; i < pos; i++)
		if (wp_same_config(req, i, pos))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("vals gives the configuration %s twice", canon),
					 errdetail("Value %d sets the same: %s.", i + 1, req->vals[i]),
					 errhint("Each configuration is run once per repeat; use repeats for more.")));
	strlcpy(req->vals[pos], canon, WP_VALUE_MAX);
}

/*
 * The values of a configuration sweep (req->setting "settings"), each
 * checked as the caller.  After the fixed settings: a value may not set one
 * of them.
 */
void
wp_request_configs(WpSweepRequest *req, Datum *elems, int n)
{
	ErrorContextCallback cb;
	int			pos;

	cb.callback = wp_config_context;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	req->ncfg = 0;
	for (pos = 0; pos < n; pos++)
	{
		int			shown = pos + 1;

		cb.arg = &shown;
		wp_request_config(req, pos, TextDatumGetCString(elems[pos]));
	}
	error_context_stack = cb.previous;
}

