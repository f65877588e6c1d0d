/* ge_engines/ge_engines.h — the standard engine set, in one include.
 *
 * Part of ge. Registers Ascend's engines (DESIGN §5), each running on this
 * machine's CPU:
 *
 *   AIcoreEngine (1), ffts_plus (1, composite), VectorEngine (2), DSAEngine (2),
 *   DNN_VM_RTS (2), DNN_HCCL (2), DNN_VM_AICPU_ASCEND (3), DNN_VM_AICPU (4),
 *   DNN_VM_DVPP (5), DNN_VM_GE_LOCAL (9), DNN_VM_HOST_CPU (10)
 *
 * in that order, so their registry indices are fixed (GE_ENGINE_INDEX_*).
 * DNN_VM_CUSTOM (0) holds the user's own ops: register a ge_custom_engine
 * (custom.h) besides. Define GE_IMPLEMENTATION in one translation unit.
 */
#ifndef GE_ENGINES_H
#define GE_ENGINES_H

#include "../ge_place.h"
#include "ai_core.h"
#include "ai_cpu.h"
#include "custom.h"
#include "dsa.h"
#include "dvpp.h"
#include "ffts_plus.h"
#include "ge_local.h"
#include "hccl.h"
#include "host_cpu.h"
#include "rts.h"
#include "vector.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  GE_ENGINE_INDEX_AI_CORE,
  GE_ENGINE_INDEX_FFTS_PLUS,
  GE_ENGINE_INDEX_VECTOR,
  GE_ENGINE_INDEX_DSA,
  GE_ENGINE_INDEX_RTS,
  GE_ENGINE_INDEX_HCCL,
  GE_ENGINE_INDEX_AI_CPU_ASCEND,
  GE_ENGINE_INDEX_AI_CPU,
  GE_ENGINE_INDEX_DVPP,
  GE_ENGINE_INDEX_GE_LOCAL,
  GE_ENGINE_INDEX_HOST_CPU,
  GE_ENGINE_STANDARD_COUNT
};

/* Registers the standard set into an empty registry (else the indices
 * above would not hold: an error). */
GE_API ge_status ge_engines_register_standard(ge_engine_registry *r, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINES_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_ENGINES_IMPLEMENTATION)
#ifndef GE_ENGINES_IMPLEMENTATION_DONE
#define GE_ENGINES_IMPLEMENTATION_DONE

#ifdef __cplusplus
extern "C" {
#endif

GE_API ge_status ge_engines_register_standard(ge_engine_registry *r, ge_error *err) {
  const ge_engine *set[GE_ENGINE_STANDARD_COUNT];
  ge_status st = GE_OK;
  int i;
  set[GE_ENGINE_INDEX_AI_CORE] = ge_ai_core_engine();
  set[GE_ENGINE_INDEX_FFTS_PLUS] = ge_ffts_plus_engine();
  set[GE_ENGINE_INDEX_VECTOR] = ge_vector_engine();
  set[GE_ENGINE_INDEX_DSA] = ge_dsa_engine();
  set[GE_ENGINE_INDEX_RTS] = ge_rts_engine();
  set[GE_ENGINE_INDEX_HCCL] = ge_hccl_engine();
  set[GE_ENGINE_INDEX_AI_CPU_ASCEND] = ge_ai_cpu_ascend_engine();
  set[GE_ENGINE_INDEX_AI_CPU] = ge_ai_cpu_engine();
  set[GE_ENGINE_INDEX_DVPP] = ge_dvpp_engine();
  set[GE_ENGINE_INDEX_GE_LOCAL] = ge_ge_local_engine();
  set[GE_ENGINE_INDEX_HOST_CPU] = ge_host_cpu_engine();
  if (ge_engine_count(r) != 0) {
    if (err) {
      err->code = GE_ERR_INVALID;
      snprintf(err->message, sizeof err->message, "ge_engines_register_standard: the registry already holds engines");
    }
    return GE_ERR_INVALID;
  }
  for (i = 0; i < GE_ENGINE_STANDARD_COUNT && st == GE_OK; i++) st = ge_engine_register(r, set[i], err);
  return st;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINES_IMPLEMENTATION_DONE */
#endif /* GE_ENGINES_IMPLEMENTATION */
