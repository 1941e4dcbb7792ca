// state.h — sequence state that outlives a request: slot files on disk and a
// prefix cache in memory.
//
// Slot files. One sequence (tokens, KV rows, recurrent state, checkpoints) in
// a versioned, checksummed file that names the model it belongs to. Written
// atomically: a temporary file in the same directory, fsync, rename over the
// target, fsync of the directory; a process killed mid-save leaves the
// previous file intact (and, at worst, a stray `.NAME.tmp.XXXXXX`). Loading
// refuses, naming why: bad magic, wrong version, truncated, corrupted
// (checksum), another model, another KV cache type.
//
//   header (256 bytes, little-endian)
//     0  char[8]  magic "FRINKSEQ"
//     8  u32      version (1)
//    12  u32      header bytes (256)
//    16  u64      model identity (seq_shape.identity: model/shape.h's model_identity)
//    24  char[32] architecture           56  char[96] model name
//   152  u32 kv type   156 u32 n_layer   160 u32 n_tokens   164 u32 n_ckpt
//   168  u64 payload bytes   176 u64 payload checksum   184 u64 header checksum
//        (of bytes [0, 184)); the rest zero
//   payload
//     i32 tokens[n_tokens]
//     per attention layer, in layer order: K rows [n_tokens], V rows [n_tokens]
//     per GDN layer: conv window, delta-rule state (F32)
//     per checkpoint: i32 pos, u32 marked, then [n_gdn][conv | ssm] (F32)
//
// Prefix cache. Snapshots of earlier sequences under a byte budget, evicted
// least recently used. Each entry is keyed by a chain of hashes over blocks of
// `block` tokens (key i covers tokens [0, (i+1)*block)), so a lookup compares
// block keys first and tokens only to confirm and to extend into the last,
// partial block: it finds the longest prefix any entry shares with the prompt.
// Restoring a hybrid sequence to that length needs a checkpoint at it (an
// entry's end is one) or the nearest before it plus replay: this file only
// finds the entry (prefix_cache_find); model/replay.h's prefix_cache_lookup
// restores from it, replaying through the executor.
#ifndef FRINK_STATE_H
#define FRINK_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "state/seq.h"

// XXH64 of n bytes (the slot file checksum; also chains the model identity).
uint64_t state_hash64(const void *p, size_t n, uint64_t seed);

// Saves `s` to `path` atomically (see above); the model it names is s's shape's. The file is created 0600: a
// prompt's state is as private as the prompt. Refuses to replace an existing
// file that is neither empty nor a slot file (of any version or model).
frink_status slot_save(const struct seq *s, const char *path);

// Replaces the contents of `s` with the file's. Refuses (s untouched) with a
// message naming why; FRINK_ERR_IO with errno ENOENT kept when the file does
// not exist, so callers can treat that as a cold start.
frink_status slot_load(struct seq *s, const char *path);

// Test hook: when set, called after each section of a save is written with the
// bytes written so far (the kill-during-save test stops the process there).
extern void (*slot_save_hook)(size_t written);

struct prefix_cache;

// A cache of sequences of shape `sh` (which must outlive it). budget: bytes of
// state kept (entries are evicted least recently used to stay under it); block:
// tokens per key block (e.g. 64).
frink_status prefix_cache_create(const struct seq_shape *sh, size_t budget, int block, struct prefix_cache **out);
void prefix_cache_free(struct prefix_cache *pc);

// Stores a snapshot of `s` (a fork: checkpoints are shared). An entry whose
// tokens are a prefix of s's and that the new one can restore without replay
// is dropped; a snapshot larger than the whole budget is not kept.
frink_status prefix_cache_put(struct prefix_cache *pc, const struct seq *s);

// Finds the entry to restore a prompt's prefix from: of the entries sharing a
// prefix (at most max_len tokens) with prompt[0..n), the one that restores the
// most tokens without compute (its restore point), then the longest match.
// *src gets that entry's sequence (owned by the cache; valid until the next
// put or free) and *len the tokens to restore from it; *src NULL for a miss.
// Without can_replay (the caller evaluates nothing) a hybrid's prefix stops at
// the entry's restore point, and a restore point of 0 is a miss. The entry
// found counts as used (least recently used eviction). Fails only for memory.
frink_status prefix_cache_find(struct prefix_cache *pc, const int32_t *prompt, int n, int max_len, bool can_replay,
                               const struct seq **src, int *len);

// Entries held and bytes used (for tests and reports).
int prefix_cache_entries(const struct prefix_cache *pc);
size_t prefix_cache_bytes(const struct prefix_cache *pc);

#endif
