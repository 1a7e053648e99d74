/* The C interface of libevalcli_spm.so, evalcli's wrapper around Debian's
 * libsentencepiece (a C++ API). evalcli bertscore dlopens the wrapper at the
 * first XLM-R tokenizer (src/metrics/bertscore/sentencepiece.cpp), so other
 * commands never load libsentencepiece. No C++ exception crosses it. */
#ifndef EVALCLI_SPM_H
#define EVALCLI_SPM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Changes whenever a signature below changes: evalcli refuses another one. */
#define EVALCLI_SPM_ABI_VERSION 1
int evalcli_spm_abi_version(void);

typedef struct evalcli_spm evalcli_spm;

/* Loads a SentencePiece model file; on failure returns NULL and writes a
 * NUL-terminated message (truncated to error_size) to error. */
evalcli_spm* evalcli_spm_load(const char* path, char* error, size_t error_size);
void evalcli_spm_free(evalcli_spm* model);

/* The number of pieces (SentencePieceProcessor::GetPieceSize). */
int evalcli_spm_piece_size(const evalcli_spm* model);
/* A piece's id, 0 (the model's <unk>) when it has none (PieceToId). */
int evalcli_spm_piece_to_id(const evalcli_spm* model, const char* piece, size_t size);
/* The SentencePiece ids of UTF-8 text (Encode). Returns how many there are,
 * writing at most capacity of them to ids (call again with more room when the
 * result is larger), or -1 when SentencePiece fails. */
long evalcli_spm_encode(const evalcli_spm* model, const char* text, size_t size, int* ids, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
