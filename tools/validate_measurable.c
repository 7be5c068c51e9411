/* validate_measurable: the `measurable` kind of validation case
 * (docs/validation.md, docs/measurable.md): would a change in trap count
 * show in measured wall times? The prediction (extra traps x per-trap cost)
 * uses the trap counts only; the runs' wall times are the measurement. The
 * case passes when prediction and measurement agree on the verdict. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measurable.h"
#include "validate.h"

const char *const validate_measurable_keys[] = {
    "data", "changed", "vcpus", "traps", "cost.lo_ns", "cost.hi_ns", "alpha",
    "power", NULL,
};

sim_err validate_measurable(vcase *c, vstatus *st, char *verdict,
                            size_t verdict_len, json_t *json)
{
    char data[600];
    if (!vcase_path(c, "data", data, sizeof data))
        return sim_fail(SIM_ERR_FORMAT, "%s: kind = measurable needs 'data' "
                                        "(a file of kernel/traps lines)",
                        c->path);
    meas_opts o = {.extra_traps = -1};
    double vcpus, lo, hi;
    sim_err e;
    if ((e = vcase_num(c, "vcpus", 1, &vcpus)) != SIM_OK ||
        (e = vcase_num(c, "alpha", 0.05, &o.alpha)) != SIM_OK ||
        (e = vcase_num(c, "power", 0.8, &o.power)) != SIM_OK ||
        (e = vcase_num(c, "traps", -1, &o.extra_traps)) != SIM_OK ||
        (e = vcase_num(c, "cost.lo_ns", 0, &lo)) != SIM_OK ||
        (e = vcase_num(c, "cost.hi_ns", 0, &hi)) != SIM_OK)
        return e;
    if (vcpus < 1 || vcpus > 4096 || vcpus != floor(vcpus))
        return vcase_fail(c, "vcpus", "vcpus = %g: expected a whole number "
                                      "from 1 to 4096", vcpus);
    /* as sim measurable's --traps and --cost-ns: a negative count was
     * read as "not given" (the counts' difference), silently */
    if (vcase_get(c, "traps") &&
        !(o.extra_traps >= 0 && o.extra_traps <= MEAS_MAX_TRAPS &&
          o.extra_traps == floor(o.extra_traps)))
        return vcase_fail(c, "traps", "traps = %g: expected a whole count "
                          "from 0 to %.0e", o.extra_traps, MEAS_MAX_TRAPS);
    static const char *const ck[] = {"cost.lo_ns", "cost.hi_ns"};
    for (int i = 0; i < 2; i++) {
        double x = i ? hi : lo;
        if (vcase_get(c, ck[i]) && !(x > 0 && x <= MEAS_MAX_COST_NS))
            return vcase_fail(c, ck[i], "%s = %g: expected a cost in ns, "
                              "0 < %s <= %.0e", ck[i], x, ck[i],
                              MEAS_MAX_COST_NS);
    }
    if (vcase_get(c, "cost.lo_ns") && vcase_get(c, "cost.hi_ns") && lo > hi)
        return vcase_fail(c, "cost.hi_ns", "cost.hi_ns = %g below cost.lo_ns "
                          "= %g", hi, lo);
    if (!(o.alpha > 0 && o.alpha < 0.5))
        return vcase_fail(c, "alpha", "alpha = %g: expected a level in "
                                      "(0, 0.5)", o.alpha);
    if (!(o.power >= 0.5 && o.power < 1))
        return vcase_fail(c, "power", "power = %g: expected a power in "
                                      "[0.5, 1)", o.power);
    o.vcpus = (unsigned)vcpus;
    o.cost_lo_ns = lo;
    o.cost_hi_ns = hi;
    static meas_data d;
    if ((e = meas_load(&d, data)) != SIM_OK)
        return e;
    size_t k = 1;
    const char *changed = vcase_get(c, "changed");
    if (changed) {
        for (k = 1; k < d.nk && strcmp(d.k[k].name, changed); k++)
            ;
        if (k == d.nk)
            return sim_fail(SIM_ERR_FORMAT, "%s: changed = %s: %s has no "
                            "such kernel", c->path, changed, data);
    }
    meas_result r;
    if ((e = meas_judge(&d, k, &o, &r)) != SIM_OK)
        return e;
    if (c->out) {
        fprintf(c->out,
                "  prediction: %.0f extra traps x %.1f .. %.1f ns = +%.4f .. "
                "+%.4f s\n"
                "  measured:   %s %.3f s (sd %.3f, %zu runs), %s %.3f s (sd "
                "%.3f, %zu runs): %+.3f s\n"
                "  Welch:      SE %.3f s, df %.2f, t %.3f, p %.3f; smallest "
                "detectable %.3f s\n",
                r.extra_traps, r.cost_lo_ns, r.cost_hi_ns, r.pred_lo_s,
                r.pred_hi_s, r.base->name, r.mean_base, r.sd_base, r.base->n,
                r.changed->name, r.mean_changed, r.sd_changed, r.changed->n,
                r.diff_s, r.se_s, r.df, r.t, r.p, r.mde_s);
    }
    json_object_set_new(json, "extra_traps", json_real(r.extra_traps));
    json_object_set_new(json, "predicted_lo_s", json_real(r.pred_lo_s));
    json_object_set_new(json, "predicted_hi_s", json_real(r.pred_hi_s));
    json_object_set_new(json, "measured_change_s", json_real(r.diff_s));
    json_object_set_new(json, "standard_error_s", json_real(r.se_s));
    json_object_set_new(json, "welch_df", json_real(r.df));
    json_object_set_new(json, "welch_t", json_real(r.t));
    json_object_set_new(json, "welch_p", json_real(r.p));
    json_object_set_new(json, "smallest_detectable_s", json_real(r.mde_s));
    json_object_set_new(json, "predicted_visible",
                        json_boolean(r.predicted_visible));
    json_object_set_new(json, "measured_visible",
                        json_boolean(r.measured_visible));
    *st = r.agree ? VPASS : VFAIL;
    snprintf(verdict, verdict_len,
             "%s: predicted +%.3f s at most, %s; measured %+.3f s, p = %.2f, "
             "%s (smallest detectable %.2f s)",
             r.agree ? "agree" : "DISAGREE", r.pred_hi_s,
             r.predicted_visible ? "visible" : "not visible", r.diff_s, r.p,
             r.measured_visible ? "significant" : "not significant",
             r.mde_s);
    return SIM_OK;
}
