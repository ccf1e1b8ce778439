/*
 * core/banned.h - libc functions perfreg does not use.
 *
 * Include this last in every .c file.  A call to a banned function then
 * fails to compile with a message that names it.  strcpy and sprintf
 * overflow, strtok keeps hidden state, atoi and atof cannot report errors,
 * gets cannot be used safely at all.
 */
#ifndef PERFREG_CORE_BANNED_H
#define PERFREG_CORE_BANNED_H

#define PR_BANNED(func) sorry_##func##_is_banned_in_perfreg

#undef strcpy
#define strcpy(x, y) PR_BANNED(strcpy)
#undef strcat
#define strcat(x, y) PR_BANNED(strcat)
#undef sprintf
#define sprintf(...) PR_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) PR_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) PR_BANNED(strtok)
#undef atoi
#define atoi(x) PR_BANNED(atoi)
#undef atof
#define atof(x) PR_BANNED(atof)
#undef gets
#define gets(x) PR_BANNED(gets)

#endif /* PERFREG_CORE_BANNED_H */
