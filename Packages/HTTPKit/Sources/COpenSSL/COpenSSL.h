// The declarations SimAdminClient's TLS layer uses, from the system's OpenSSL headers
// (libssl-dev). Only types and constants reach Swift code: the functions themselves are
// never called by name (that would need libssl at link time); TLSLibrary looks each one up
// with dlsym and casts it to the matching `msa_*_fn` pointer type below.
#ifndef MSA_COPENSSL_H
#define MSA_COPENSSL_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

// Pointer types of the functions looked up with dlsym, each the type of the header's own
// declaration, so a mismatch with the real prototype cannot be written.
typedef __typeof__(TLS_client_method) *msa_TLS_client_method_fn;
typedef __typeof__(SSL_CTX_new) *msa_SSL_CTX_new_fn;
typedef __typeof__(SSL_CTX_free) *msa_SSL_CTX_free_fn;
typedef __typeof__(SSL_CTX_set_default_verify_paths) *msa_SSL_CTX_set_default_verify_paths_fn;
typedef __typeof__(SSL_CTX_load_verify_locations) *msa_SSL_CTX_load_verify_locations_fn;
typedef __typeof__(SSL_CTX_set_verify) *msa_SSL_CTX_set_verify_fn;
typedef __typeof__(SSL_CTX_ctrl) *msa_SSL_CTX_ctrl_fn;
typedef __typeof__(SSL_CTX_set_options) *msa_SSL_CTX_set_options_fn;
typedef __typeof__(SSL_new) *msa_SSL_new_fn;
typedef __typeof__(SSL_free) *msa_SSL_free_fn;
typedef __typeof__(SSL_set_fd) *msa_SSL_set_fd_fn;
typedef __typeof__(SSL_set1_host) *msa_SSL_set1_host_fn;
typedef __typeof__(SSL_ctrl) *msa_SSL_ctrl_fn;
typedef __typeof__(SSL_connect) *msa_SSL_connect_fn;
typedef __typeof__(SSL_read) *msa_SSL_read_fn;
typedef __typeof__(SSL_write) *msa_SSL_write_fn;
typedef __typeof__(SSL_get_error) *msa_SSL_get_error_fn;
typedef __typeof__(SSL_shutdown) *msa_SSL_shutdown_fn;
typedef __typeof__(ERR_clear_error) *msa_ERR_clear_error_fn;
typedef __typeof__(OpenSSL_version_num) *msa_OpenSSL_version_num_fn;

// Constants whose macros Swift cannot import (they expand to other macros), evaluated here
// by the C compiler from the header's own definitions.
static const uint64_t msa_SSL_OP_IGNORE_UNEXPECTED_EOF = SSL_OP_IGNORE_UNEXPECTED_EOF;
static const long msa_SSL_MODE_PARTIAL_WRITE_AND_MOVING_BUFFER =
    SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;

#endif
