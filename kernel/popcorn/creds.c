// SPDX-License-Identifier: GPL-2.0
/*
 * Credentials of migrated threads.
 *
 * A thread runs at a remote with the credentials it has at the origin
 * when it migrates: real, effective, saved and fs uid and gid,
 * supplementary groups, the five capability sets, securebits and
 * no_new_privs; and its process's rlimits.  The origin captures them
 * into PROCESS_CREATE and TASK_MIGRATE; the remote worker installs them
 * on itself before it makes the thread, which then shares them
 * (CLONE_THREAD).  So the worker never keeps the kernel's credentials,
 * and a change at the origin (setuid, setgroups, setrlimit) reaches
 * the remote with the thread's next migration.
 *
 * What cannot be carried is refused at the origin with -EPERM and a log
 * line: a seccomp filter (its programs do not travel), an LSM label, a
 * user namespace other than the initial one, more than
 * PCN_CREDS_MAX_GROUPS supplementary groups.  Everything received is
 * checked before it is installed.
 */
#define pr_fmt(fmt) "popcorn: " fmt

#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/user.h>
#include <linux/security.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <uapi/linux/securebits.h>

#include "creds.h"
#include "seccomp.h"

static_assert(RLIM_NLIMITS == PCN_CREDS_NR_RLIMITS);
static_assert(_KERNEL_CAPABILITY_U32S == 2);

/* Capabilities 0 to CAP_LAST_CAP. */
#define PCN_CAP_VALID	(((u64)CAP_LAST_U32_VALID_MASK << 32) | U32_MAX)

static u64 pcn_cap_to_u64(kernel_cap_t c)
{
	return ((u64)c.cap[1] << 32) | c.cap[0];
}

static kernel_cap_t pcn_cap_from_u64(u64 v)
{
	kernel_cap_t c;

	c.cap[0] = lower_32_bits(v);
	c.cap[1] = upper_32_bits(v);
	return c;
}

static int pcn_creds_refuse(const char *why)
{
	pr_info_ratelimited("thread %d (%s) not migrated: %s\n",
			    task_pid_nr(current), current->comm, why);
	return -EPERM;
}

/**
 * pcn_creds_capture() - the calling thread's credentials, for a remote
 * @c: filled in
 *
 * Return: 0, or -EPERM when they cannot be carried (seccomp filter, LSM
 * label, user namespace, too many groups).
 */
int pcn_creds_capture(struct pcn_creds *c)
{
	const struct cred *cred = current_cred();
	const struct group_info *gi = cred->group_info;
	struct task_struct *leader = current->group_leader;
	u32 secid = 0;
	int i;

	memset(c, 0, sizeof(*c));
	if (pcn_seccomp_on())
		return pcn_creds_refuse("it has a seccomp filter");
	security_cred_getsecid(cred, &secid);
	if (secid)
		return pcn_creds_refuse("it has an LSM label");
	if (cred->user_ns != &init_user_ns)
		return pcn_creds_refuse("it is in a user namespace");
	if (gi->ngroups > PCN_CREDS_MAX_GROUPS)
		return pcn_creds_refuse("it has too many supplementary groups");

	c->uid = from_kuid(&init_user_ns, cred->uid);
	c->euid = from_kuid(&init_user_ns, cred->euid);
	c->suid = from_kuid(&init_user_ns, cred->suid);
	c->fsuid = from_kuid(&init_user_ns, cred->fsuid);
	c->gid = from_kgid(&init_user_ns, cred->gid);
	c->egid = from_kgid(&init_user_ns, cred->egid);
	c->sgid = from_kgid(&init_user_ns, cred->sgid);
	c->fsgid = from_kgid(&init_user_ns, cred->fsgid);
	c->cap_inheritable = pcn_cap_to_u64(cred->cap_inheritable);
	c->cap_permitted = pcn_cap_to_u64(cred->cap_permitted);
	c->cap_effective = pcn_cap_to_u64(cred->cap_effective);
	c->cap_bset = pcn_cap_to_u64(cred->cap_bset);
	c->cap_ambient = pcn_cap_to_u64(cred->cap_ambient);
	c->securebits = cred->securebits;
	if (task_no_new_privs(current))
		c->flags |= PCN_CREDS_NO_NEW_PRIVS;
	c->ngroups = gi->ngroups;
	for (i = 0; i < gi->ngroups; i++)
		c->groups[i] = from_kgid(&init_user_ns, gi->gid[i]);

	task_lock(leader);
	for (i = 0; i < RLIM_NLIMITS; i++) {
		c->rlim[i].cur = current->signal->rlim[i].rlim_cur;
		c->rlim[i].max = current->signal->rlim[i].rlim_max;
	}
	task_unlock(leader);
	return 0;
}

static bool pcn_uid_ok(u32 id)
{
	return uid_valid(make_kuid(&init_user_ns, id));
}

static bool pcn_gid_ok(u32 id)
{
	return gid_valid(make_kgid(&init_user_ns, id));
}

/* Every field of a received set in range. */
static bool pcn_creds_valid(const struct pcn_creds *c)
{
	u64 caps = c->cap_inheritable | c->cap_permitted | c->cap_effective |
		   c->cap_bset | c->cap_ambient;
	int i;

	if (c->ngroups > PCN_CREDS_MAX_GROUPS ||
	    (c->flags & ~PCN_CREDS_NO_NEW_PRIVS) || (caps & ~PCN_CAP_VALID) ||
	    (c->securebits & ~(SECURE_ALL_BITS | SECURE_ALL_LOCKS)))
		return false;
	if (!pcn_uid_ok(c->uid) || !pcn_uid_ok(c->euid) ||
	    !pcn_uid_ok(c->suid) || !pcn_uid_ok(c->fsuid) ||
	    !pcn_gid_ok(c->gid) || !pcn_gid_ok(c->egid) ||
	    !pcn_gid_ok(c->sgid) || !pcn_gid_ok(c->fsgid))
		return false;
	for (i = 0; i < c->ngroups; i++)
		if (!pcn_gid_ok(c->groups[i]))
			return false;
	for (i = 0; i < RLIM_NLIMITS; i++)
		if (c->rlim[i].cur > c->rlim[i].max)
			return false;
	return true;
}

/*
 * The user of @new's uid, as set_user() and set_cred_ucounts() make it
 * for setuid(): the tasks, pending signals, message queues and locked
 * memory of the thread and its worker count against that user's limits
 * here, not root's (whose processes RLIMIT_NPROC does not even bind),
 * and key lookups search that user's keyrings.
 */
static int pcn_creds_set_user(struct cred *new)
{
	struct user_struct *user;

	if (!uid_eq(new->user->uid, new->uid)) {
		user = alloc_uid(new->uid);
		if (!user)
			return -ENOMEM;
		free_uid(new->user);
		new->user = user;
	}
	return set_cred_ucounts(new) ? -ENOMEM : 0;
}

/**
 * pcn_creds_install() - take the credentials and rlimits of @c
 * @c: as pcn_creds_capture() filled it at the origin, unchecked
 *
 * Called by a remote worker for itself, before it makes a thread that
 * shares them.  no_new_privs is the thread's own: see
 * pcn_creds_install_thread().
 *
 * Return: 0, -EINVAL for a malformed set, -ENOMEM.
 */
int pcn_creds_install(const struct pcn_creds *c)
{
	struct task_struct *leader = current->group_leader;
	struct group_info *gi;
	struct cred *new;
	int i, err;

	if (!pcn_creds_valid(c))
		return -EINVAL;
	gi = groups_alloc(c->ngroups);
	if (!gi)
		return -ENOMEM;
	for (i = 0; i < c->ngroups; i++)
		gi->gid[i] = make_kgid(&init_user_ns, c->groups[i]);
	groups_sort(gi);
	new = prepare_creds();
	if (!new) {
		put_group_info(gi);
		return -ENOMEM;
	}
	new->uid = make_kuid(&init_user_ns, c->uid);
	new->euid = make_kuid(&init_user_ns, c->euid);
	new->suid = make_kuid(&init_user_ns, c->suid);
	new->fsuid = make_kuid(&init_user_ns, c->fsuid);
	new->gid = make_kgid(&init_user_ns, c->gid);
	new->egid = make_kgid(&init_user_ns, c->egid);
	new->sgid = make_kgid(&init_user_ns, c->sgid);
	new->fsgid = make_kgid(&init_user_ns, c->fsgid);
	new->cap_inheritable = pcn_cap_from_u64(c->cap_inheritable);
	new->cap_permitted = pcn_cap_from_u64(c->cap_permitted);
	new->cap_effective = pcn_cap_from_u64(c->cap_effective);
	new->cap_bset = pcn_cap_from_u64(c->cap_bset);
	new->cap_ambient = pcn_cap_from_u64(c->cap_ambient);
	new->securebits = c->securebits;
	set_groups(new, gi);
	put_group_info(gi);
	err = pcn_creds_set_user(new);
	if (err) {
		abort_creds(new);
		return err;
	}
	commit_creds(new);

	/*
	 * Written as the origin has them; RLIMIT_CPU is not armed here (CPU
	 * time at a remote is not counted against it).
	 */
	task_lock(leader);
	for (i = 0; i < RLIM_NLIMITS; i++) {
		current->signal->rlim[i].rlim_cur = c->rlim[i].cur;
		current->signal->rlim[i].rlim_max = c->rlim[i].max;
	}
	task_unlock(leader);
	return 0;
}

/**
 * pcn_creds_install_thread() - the per-thread part, in the new thread
 * @c: the set its worker installed
 */
void pcn_creds_install_thread(const struct pcn_creds *c)
{
	/* The worker never sets it: one thread's flag is not another's. */
	if (c->flags & PCN_CREDS_NO_NEW_PRIVS)
		task_set_no_new_privs(current);
}
