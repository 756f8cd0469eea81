# Finds every third-party dependency once and exposes it as an imported target. What Debian 12
# ships differs per package: gRPC has a CMake config, Protobuf needs CMake's
# own FindProtobuf module, Pistache and hiredis have only pkg-config files, libphonenumber has
# neither.
find_package(Threads REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
# Abseil comes with gRPC; dq uses its string helpers directly (dq/common/ascii.h).
find_package(absl CONFIG REQUIRED)
find_package(OpenSSL 3 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CURL REQUIRED)
find_package(PkgConfig REQUIRED)
# Pistache is pinned to Debian 12's exact version: the gateway's edge binds a second HTTP handler
# to a connection's transport through Tcp::Handler::associateTransport, which Pistache keeps
# private, because no public call can (docs/architecture.md, "Pistache's one private member").
# Another version may change that member: check it, then move the pin.
pkg_check_modules(PISTACHE REQUIRED IMPORTED_TARGET libpistache=0.0.5-git20220901)
pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis)
pkg_check_modules(UUID REQUIRED IMPORTED_TARGET uuid)

find_library(PHONENUMBER_LIBRARY phonenumber REQUIRED)
find_path(PHONENUMBER_INCLUDE_DIR phonenumbers/phonenumberutil.h REQUIRED)
add_library(dq_phonenumber INTERFACE)
target_link_libraries(dq_phonenumber INTERFACE ${PHONENUMBER_LIBRARY} protobuf::libprotobuf)
target_include_directories(dq_phonenumber SYSTEM INTERFACE ${PHONENUMBER_INCLUDE_DIR})
# RE2 runs libphonenumber's metadata patterns on the engine's phone fast path
# (validator/src/engine/phone_fast_path.*); libphonenumber itself uses ICU regexps.
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
add_library(dq::re2 ALIAS PkgConfig::RE2)

# Data files the rule engine reads (from Debian's iso-codes package).
set(DQ_ISO_CODES_DIR "/usr/share/iso-codes/json" CACHE PATH "iso-codes JSON directory")
if(NOT EXISTS "${DQ_ISO_CODES_DIR}/iso_3166-1.json")
  message(FATAL_ERROR "iso-codes not found in ${DQ_ISO_CODES_DIR}: run scripts/install-deps.sh")
endif()

if(DQ_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
if(DQ_BUILD_BENCH)
  find_package(benchmark CONFIG REQUIRED)
endif()
# simdjson On-Demand finds the tokens of a POST /v1/validate body (validate_request.cpp).
find_package(simdjson CONFIG REQUIRED)

# Libraries added for self-service, the console and upload formats. Debian 12 ships CMake
# configs for CLI11 and expat; the rest have pkg-config files only.
find_package(CLI11 CONFIG REQUIRED)
find_package(EXPAT REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(ARGON2 REQUIRED IMPORTED_TARGET libargon2)
pkg_check_modules(IDN2 REQUIRED IMPORTED_TARGET libidn2)
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
pkg_check_modules(UCHARDET REQUIRED IMPORTED_TARGET uchardet)
# zstd compresses a job's file pieces in Redis (gateway/src/jobs/piece_codec.*).
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
add_library(dq::argon2 ALIAS PkgConfig::ARGON2)
add_library(dq::idn2 ALIAS PkgConfig::IDN2)
# libunistring (Unicode character properties; libidn2 is built on it) has no pkg-config file.
find_path(UNISTRING_INCLUDE_DIR unictype.h REQUIRED)
find_library(UNISTRING_LIBRARY unistring REQUIRED)
add_library(dq::unistring INTERFACE IMPORTED)
target_include_directories(dq::unistring INTERFACE ${UNISTRING_INCLUDE_DIR})
target_link_libraries(dq::unistring INTERFACE ${UNISTRING_LIBRARY})
add_library(dq::zip ALIAS PkgConfig::LIBZIP)
add_library(dq::uchardet ALIAS PkgConfig::UCHARDET)
add_library(dq::zstd ALIAS PkgConfig::ZSTD)
