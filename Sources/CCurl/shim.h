// libcurl (Debian libcurl4-openssl-dev): the client's HTTP stack, through the multi interface.
#ifndef SWIFT_FIRESTORE_CCURL_SHIM_H
#define SWIFT_FIRESTORE_CCURL_SHIM_H

#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
#else
#error "libcurl's headers are missing: install Debian's libcurl4-openssl-dev (apt-get install libcurl4-openssl-dev)"
#endif

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call: one typed function per kind of argument.

static inline CURLcode swiftfirestore_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swiftfirestore_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swiftfirestore_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swiftfirestore_curl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swiftfirestore_curl_setopt_read_function(CURL *handle, curl_read_callback value) {
  return curl_easy_setopt(handle, CURLOPT_READFUNCTION, value);
}

static inline CURLcode swiftfirestore_curl_setopt_seek_function(CURL *handle, curl_seek_callback value) {
  return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}

static inline CURLcode swiftfirestore_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode swiftfirestore_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode swiftfirestore_curl_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode swiftfirestore_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

// Macros built from other macros, which Swift does not import.
static const int swiftfirestore_CURLPAUSE_CONT = CURLPAUSE_CONT;
static const size_t swiftfirestore_CURL_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE;
static const size_t swiftfirestore_CURL_READFUNC_ABORT = CURL_READFUNC_ABORT;

#endif
