// SPDX-License-Identifier: MIT
// Precompiled once per build for the widget libraries (SERVESCOPE_PCH): core.h and the Widgets
// headers most views include.
#include "core.h"

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QWidget>
