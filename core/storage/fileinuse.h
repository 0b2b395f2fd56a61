// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

namespace ServeScope {

/// Marks a project file as held open by SQLite in this process, for as long as the object lives.
///
/// POSIX record locks belong to a process and a file, not to a descriptor: closing *any*
/// descriptor of the file drops every lock the process holds on it, SQLite's included. Another
/// process may then take the file exclusively, checkpoint and delete the WAL under a live
/// connection, whose later commits are lost (a run left `running` with part of its requests) or
/// fail with "disk I/O error". So every SQLite connection to a project is opened inside a
/// FileInUse, and the file is read outside SQLite (the raw header check) only when none is held.
class FileInUse final {
public:
    explicit FileInUse(const QString &path);
    ~FileInUse();
    FileInUse(const FileInUse &) = delete;
    FileInUse &operator=(const FileInUse &) = delete;

    /// Runs `read` (which may open and close the file) unless a FileInUse holds the same file
    /// (same device and inode); returns whether it ran. No connection opens while it runs.
    static bool readUnlessInUse(const QString &path, const std::function<void()> &read);

private:
    quint64 m_device = 0;
    quint64 m_inode = 0;
    bool m_held = false;
};

} // namespace ServeScope
