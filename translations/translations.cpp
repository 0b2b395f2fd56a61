// SPDX-License-Identifier: MIT
// Anchor for the static library that carries the compiled translations (:/i18n/servescope_*.qm).
namespace ServeScope {
int translationsAnchor()
{
    return 0;
}
} // namespace ServeScope
