# SPDX-License-Identifier: MIT
# The Debian 12 package (docs/packaging.md): `cpack --config build/CPackConfig.cmake`, or
# scripts/package.sh. Included last from the top-level CMakeLists.txt, after every install rule.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME servescope)
set(CPACK_PACKAGE_VENDOR "ServeScope")
set(CPACK_PACKAGE_CONTACT "ServeScope maintainers <servescope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "benchmark experiments for OpenAI-compatible LLM endpoints")
# One string: CPack indents each line of it into the control file's long description.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "ServeScope designs, runs and compares benchmark experiments against OpenAI-compatible LLM\n"
    "endpoints (vLLM, SGLang, or a gateway in front of them): TTFT, TPOT, ITL, E2EL and\n"
    "throughput as vllm bench serve defines them, concurrency and rate sweeps with variants,\n"
    "charts, run comparison and a regression gate.\n"
    "\n"
    "The package holds the Qt desktop application (servescope) and the headless command-line\n"
    "tool (servescope-cli) with its built-in simulated server.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY servescope)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Only the package in this folder, so that it can be the (small) Docker build context.
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/packages)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${SERVESCOPE_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What dpkg-shlibdeps cannot see, because it is loaded or read at run time: the SQLite driver
# plugin (project files), libsecret (QtKeychain dlopens it for the keychain), Qt's own
# translations (--lang zh_CN) and the CA certificates the OpenSSL TLS backend verifies https
# endpoints against (libssl3 does not depend on them). Plugins that ship in linked libraries
# come with them: the xcb and offscreen platforms (libqt6gui6), the OpenSSL TLS backend
# (libqt6network6, which depends on libssl3), the SVG image and icon engines (libqt6svg6).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite (>= 6.4), libsecret-1-0, qt6-translations-l10n, ca-certificates")
# A Secret Service for the keychain, Wayland without XWayland, a font for Chinese text, and the PostgreSQL driver
# for the optional team database (publish, pull, runs --db).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring, qt6-wayland, fonts-noto-cjk | fonts-wqy-microhei, libqt6sql6-psql")

include(CPack)
