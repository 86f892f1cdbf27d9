// OpenSSL's libcrypto (Debian libssl-dev) for RS256 signing: PEM key parsing, SHA-256 and
// RSA PKCS#1 v1.5 signatures through the EVP interface.
#ifndef SWIFT_FIRESTORE_COPENSSL_SHIM_H
#define SWIFT_FIRESTORE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#endif
