// chatparse_impl.h — what the chatparse files share: the parser's state, the input cursor, the
// call bookkeeping and the streaming JSON scanner. Not for use outside src/chat/chatparse*.c.
//
// How the parser runs. Input bytes are appended to `in`; [pos, in.n) is not yet consumed. The
// parser is either in TEXT (content or reasoning: scanning for the format's triggers, holding a
// possible partial trigger and trailing whitespace) or in CALL (a format's markup machine,
// `sub` its state). Every byte a markup machine consumes is also appended to `raw`, so that
// markup that turns out broken can be given back as content exactly. A machine step returns 1
// after progress and 0 when it needs more input; at the end of input the driver turns whatever
// markup is still open into content (a WARNING first), so machines never see the end of input
// unless they ask (p->eof).
#ifndef FRINK_CHATPARSE_IMPL_H
#define FRINK_CHATPARSE_IMPL_H

#include "chat/chatparse.h"

// A growable byte buffer, always allocated (chatparse_create) and NUL-terminated. Allocation
// failures set the parser's oom flag (cp_sb_put takes the parser for that) and drop the bytes.
struct cp_sbuf {
    char *p;
    size_t n, cap;
};

// ---- streaming JSON scanner ---------------------------------------------------------------
// Checks one JSON value byte by byte (RFC 8259: strings with valid UTF-8 and paired surrogate
// escapes, numbers, literals, nesting up to CP_JSCAN_MAX_DEPTH) and says where it ends.
#define CP_JSCAN_MAX_DEPTH 512
enum { CP_JSCAN_MORE, CP_JSCAN_DONE, CP_JSCAN_DONE_BEFORE, CP_JSCAN_ERR };
struct cp_jscan {
    uint8_t st;     // enum js_state in chatparse_json.c
    uint8_t k;      // literal position / hex digits read / UTF-8 continuation bytes left
    uint8_t lit;    // which literal
    uint8_t lo, hi; // the range the next UTF-8 continuation byte must fall in
    bool key;       // the string being read is an object key
    bool surr;      // a high surrogate escape was read; the low one must follow
    uint16_t u;     // the \u escape being read
    int depth;
    uint8_t stack[CP_JSCAN_MAX_DEPTH / 8]; // one bit per level: 1 object, 0 array
};
void cp_jscan_init(struct cp_jscan *j);
// Feeds c. CP_JSCAN_MORE: consumed, the value goes on; CP_JSCAN_DONE: consumed, it was the
// value's last byte; CP_JSCAN_DONE_BEFORE: not consumed, the value (a number) ended before it;
// CP_JSCAN_ERR: not consumed, c cannot continue a JSON value.
int cp_jscan_byte(struct cp_jscan *j, unsigned char c);
// At the end of input: whether the bytes fed were one complete value.
bool cp_jscan_end(const struct cp_jscan *j);
// Whether s[0..n) is one JSON object, with nothing but whitespace around it.
bool cp_json_is_object(const char *s, size_t n);

// ---- parser state -----------------------------------------------------------------------

enum { ST_TEXT, ST_CALL };
enum { TK_CONTENT, TK_REASONING };

// What the JSON object of a call is made of: the keys naming the function, holding the
// arguments, holding the model's id, and others it may have (lists of up to 3; compared as
// written, escapes not decoded). wait_id: hold TOOL_NAME until the id is known or the object
// ends (Mistral Nemo writes the id last). An object read tentatively (Llama 3's bare JSON,
// which may be an answer) becomes a call once its name and then its arguments key are read;
// until then a key not in these lists sends it back as plain content.
struct cp_jkeys {
    const char *name[3], *args[3], *id[3], *other[3];
    bool wait_id;
};

// The JSON object of a call being read (struct chatparse.jo).
struct cp_jobj {
    uint8_t st, role;
    bool seen_name, seen_args;
    const struct cp_jkeys *keys;
    struct cp_jscan js;      // the current key or value
    struct cp_sbuf key, val; // raw key; raw value when kept (name, id, arguments as a string)
};

// A value of an XML-style parameter (Qwen3-Coder, GLM) becoming JSON as it streams: JSON when
// it parses as JSON, else a string.
struct cp_xval {
    uint8_t mode;
    size_t done; // bytes of struct chatparse.vbuf already looked at
    struct cp_jscan js;
};

// The call being read.
struct cp_call {
    bool active;    // between cp_call_begin and cp_call_end / cp_call_fail
    bool announced; // TOOL_NAME sent
    bool has_name, has_id;
    bool tentative; // not known to be a call yet (Llama 3's bare JSON): failure is silent
    bool wait_id;   // TOOL_NAME waits for the id (struct cp_jkeys.wait_id)
    int index;
    struct cp_sbuf name, id, args;
    size_t args_sent; // bytes of args already sent as TOOL_ARGS
    int nparams;      // XML formats: parameters written so far
};

struct cp_fmt; // chatparse.c's table entry

struct chatparse {
    enum chat_format f;
    const struct cp_fmt *fmt;
    unsigned flags;
    uint64_t rng;

    struct cp_sbuf in; // input; [pos, in.n) not consumed
    size_t pos;
    bool eof;          // chatparse_finish: no more input
    bool oom, broken;  // an allocation failed (this call / for good)

    uint8_t trig_first[32]; // bit set of the bytes a trigger of the format starts with
    int st, sub;            // ST_TEXT / ST_CALL; the markup machine's state
    int opener;             // which trigger started the markup
    int tk;                 // TEXT: TK_CONTENT / TK_REASONING
    bool skip_ws;           // TEXT: drop whitespace until the next other byte
    bool start;             // nothing decided yet in this message
    bool fresh;             // no text but whitespace decided since the last markup
    struct cp_sbuf pending; // TEXT: trailing whitespace held back
    struct cp_sbuf raw;     // CALL: the markup consumed since it began or the last call ended

    struct cp_call call;
    struct cp_jobj jo;
    struct cp_xval xv;
    struct cp_sbuf vbuf, tmp, out; // a parameter value / a name, key or header / emission scratch
    int n_calls;
    bool section; // inside a multi-call section (DeepSeek, Kimi), or Qwen3-Coder's <tool_call>
    bool fence;   // DeepSeek R1: the arguments sit in a ``` fence
    bool lines;   // a <tool_calls> block of JSON objects one per line, not an array
    struct {
        char stack[64]; // Gemma 4's open containers, '{' or '['
        int depth;
        bool quoted; // the key being read is <|"|>quoted<|"|>
    } gm;
    struct {
        char type[32];       // MiniMax-M3's open elements: 'o' object, 'a' array, 's' text, '?'
        bool first[32];      // no member written yet
        size_t name_off[32]; // where each one's name begins in m3names
        int depth;
    } m3;
    struct cp_sbuf m3names; // their names, NUL-separated

    unsigned n_warn;
    char warn[256];

    chat_emit_fn emit;
    void *ud;
};

// ---- chatparse.c: buffers, emission, cursor, calls ---------------------------------------

void cp_sb_put(struct chatparse *p, struct cp_sbuf *b, const void *s, size_t n);
void cp_sb_puts(struct chatparse *p, struct cp_sbuf *b, const char *s);
void cp_sb_clear(struct cp_sbuf *b);
void cp_sb_free(struct cp_sbuf *b);

bool cp_is_ws(unsigned char c);
void cp_emit_text(struct chatparse *p, int tk, const char *s, size_t n);

// Cursor over the unconsumed input, for markup machines. Consumed bytes go to p->raw.
enum { R_NO = -1, R_MORE = 0, R_OK = 1 };
size_t cp_avail(const struct chatparse *p);
const char *cp_at(const struct chatparse *p);
void cp_take(struct chatparse *p, size_t n, struct cp_sbuf *also);
// Consumes whitespace; true when a byte follows (false: the input ran out).
bool cp_ws(struct chatparse *p);
// Consumes lit when the input starts with it (R_OK); R_MORE when the input is a proper prefix
// of it; R_NO otherwise (nothing consumed).
int cp_lit(struct chatparse *p, const char *lit);
// Consumes bytes into dst up to the first of the NULL-terminated lits, then that lit (R_OK,
// *which its index). R_MORE: all bytes that cannot begin a lit are consumed, more are needed.
// R_NO: dst would pass cap bytes.
int cp_until(struct chatparse *p, const char *const *lits, struct cp_sbuf *dst, size_t cap, int *which);

// Back to text after markup: content, whitespace skipped, raw dropped.
void cp_to_text(struct chatparse *p, int tk);
// Markup that is not a call cannot be parsed: a WARNING (index -1), then raw as content.
void cp_markup_fail(struct chatparse *p, const char *why);
// After a complete call, unexpected bytes: warn; they are then read as text.
void cp_post_junk(struct chatparse *p);

void cp_call_begin(struct chatparse *p);
// Sets the name (validated: 1..256 bytes of UTF-8 without control characters; false if not).
bool cp_call_set_name(struct chatparse *p, const char *s, size_t n);
void cp_call_set_id(struct chatparse *p, const char *s, size_t n);
void cp_call_args_put(struct chatparse *p, const char *s, size_t n);
void cp_call_args_puts(struct chatparse *p, const char *s);
// Sends TOOL_NAME when the name (and, for wait_id formats, the id) is known and calls stream.
void cp_call_try_announce(struct chatparse *p);
// The call's payload is complete: checks the arguments, sends what is left and TOOL_END.
// False when the arguments are not a JSON object (the call then failed as cp_call_fail does).
bool cp_call_end(struct chatparse *p);
// The call cannot be parsed: WARNING (with its index when announced) and raw as content.
void cp_call_fail(struct chatparse *p, const char *why);
// A tentative call (Llama 3's bare JSON) is not a call: raw goes back as content, no warning.
void cp_call_reject(struct chatparse *p);

// ---- chatparse_json.c: JSON text, call objects, arrays of them ----------------------------

void cp_json_put_escaped(struct chatparse *p, struct cp_sbuf *b, const char *s, size_t n);
void cp_json_put_string(struct chatparse *p, struct cp_sbuf *b, const char *s, size_t n);
// Decodes the JSON string literal s[0..n) (quotes included, already checked) into dst.
void cp_json_unescape(struct chatparse *p, const char *s, size_t n, struct cp_sbuf *dst);

void cp_jobj_init(struct chatparse *p, const struct cp_jkeys *keys, bool open_read, bool tentative);
// Reads the call object. 1: its closing brace was read (name and arguments set), 0: more input
// needed, -1: broken (a message in *why; for a tentative object: not a call).
int cp_jobj_step(struct chatparse *p, const char **why);
// Streams a JSON object into the call's arguments (leading whitespace skipped), after
// cp_args_init. 1: the object is complete, 0: more input needed, -1: broken (*why).
void cp_args_init(struct chatparse *p);
int cp_args_step(struct chatparse *p, const char **why);
// Appends s[0..n) to the call's arguments as the inside of a JSON string.
void cp_call_args_escaped(struct chatparse *p, const char *s, size_t n);

// XML-style parameter values: start, feed what cp_until added to p->vbuf, close.
void cp_xval_init(struct chatparse *p);
// The same for a value known to be a string (DSML's string="true"): raw text, never JSON.
void cp_xval_init_string(struct chatparse *p);
void cp_xval_feed(struct chatparse *p, bool pylit);
void cp_xval_close(struct chatparse *p, bool pylit);
// A value's reading state, after cp_xval_init*: reads up to the first of the NULL-terminated
// ends (and it), feeding and then closing the value. False while more input is needed.
bool cp_xval_read(struct chatparse *p, const char *const *ends, bool pylit);
// Raw text up to the first of ends (and it) as a JSON string's inside, then its closing quote
// (the opening one is the caller's). False while more input is needed.
bool cp_raw_string_read(struct chatparse *p, const char *const *ends);
// Writes the separator and the key of the next XML-style parameter.
void cp_xparam_key(struct chatparse *p, const char *k, size_t n);

// ---- chatparse_fmt.c, chatparse_xml.c: the markup machines ---------------------------------

int cp_fmt_hermes(struct chatparse *p);
int cp_fmt_qwen_xml(struct chatparse *p);
int cp_fmt_glm(struct chatparse *p);
int cp_fmt_llama(struct chatparse *p);
int cp_fmt_mistral(struct chatparse *p);
int cp_fmt_deepseek(struct chatparse *p);
int cp_fmt_kimi(struct chatparse *p);
int cp_fmt_json_array(struct chatparse *p);
int cp_fmt_functionary31(struct chatparse *p);
int cp_fmt_functionary32(struct chatparse *p);
int cp_fmt_harmony(struct chatparse *p);
// chatparse_xml.c: MiniMax-M2 and DeepSeek DSML <invoke name="…"><parameter name="…">.
int cp_fmt_invoke(struct chatparse *p);
// chatparse_xml.c: MiniMax-M3's namespaced ]<]minimax[>[<invoke name="…">, arguments as XML.
int cp_fmt_minimax_m3(struct chatparse *p);
// chatparse_gemma.c: Gemma 4's <|tool_call>call:NAME{key:<|"|>v<|"|>}<tool_call|>.
int cp_fmt_gemma4(struct chatparse *p);

// Table data the machines read (chatparse.c).
const struct cp_jkeys *cp_fmt_keys(const struct chatparse *p);
const char *cp_fmt_close(const struct chatparse *p);
// Whether XML-style values may be Python's str() of a list or dict (Seed-OSS).
bool cp_fmt_pyrepr(const struct chatparse *p);
// Harmony: the substate a header begins in.
#define HARMONY_HEAD 0
// Functionary v3.2: the substate reading a recipient.
#define FUNC32_RECIPIENT 0

#endif
