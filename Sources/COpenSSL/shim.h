// OpenSSL (Debian libssl-dev): libcrypto for RS256 signing (PEM key parsing, SHA-256 and RSA
// PKCS#1 v1.5 signatures through the EVP interface), and libssl for the socket transport's
// TLS connections.
#ifndef SWIFT_FIRESTORE_COPENSSL_SHIM_H
#define SWIFT_FIRESTORE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

// Macros in OpenSSL's headers, which Swift cannot call: functions of the same effect.

/// Sets the server name (SNI) a TLS client sends.
static inline long swiftfirestore_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
  return SSL_set_tlsext_host_name(ssl, name);
}

/// Sets the oldest protocol version a context accepts.
static inline long swiftfirestore_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
  return SSL_CTX_set_min_proto_version(ctx, version);
}

#endif
