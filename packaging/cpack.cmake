# SPDX-License-Identifier: MIT
# The Debian 12 package (docs/packaging.md): `cpack --config build/CPackConfig.cmake`, or
# scripts/package.sh. Included last from the top-level CMakeLists.txt, after every install rule.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME servescope)
set(CPACK_PACKAGE_VENDOR "ServeScope")
set(CPACK_PACKAGE_CONTACT "ServeScope maintainers <servescope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "benchmark experiments for OpenAI-compatible LLM endpoints")
set(CPACK_PACKAGE_DESCRIPTION
    "ServeScope designs, runs and compares benchmark experiments against OpenAI-compatible LLM\n"
    "endpoints (vLLM, SGLang, or a gateway in front of them): TTFT, TPOT, ITL, E2EL and throughput\n"
    "as vllm bench serve defines them, concurrency and rate sweeps with variants, charts,\n"
    "run comparison and a regression gate. The package holds the Qt desktop application\n"
    "(servescope) and the headless command-line tool (servescope-cli) with its built-in\n"
    "simulated server.")
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
# What dpkg-shlibdeps cannot see, because Qt and QtKeychain load it at run time:
# the SQLite driver plugin (project files), QtKeychain's dlopen of libsecret (the keychain),
# the SVG image and icon engine plugins (the icon, SVG charts), Qt's own translations
# (--lang zh_CN). The xcb and offscreen platform plugins and the OpenSSL TLS backend ship in
# libqt6gui6 and libqt6network6 (which depends on libssl3), both linked and so already listed.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite (>= 6.4), libsecret-1-0, libqt6svg6 (>= 6.4), qt6-translations-l10n")
# A Secret Service for the keychain, Wayland without XWayland, and a font for Chinese text.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring, qt6-wayland, fonts-noto-cjk | fonts-wqy-microhei")

include(CPack)
