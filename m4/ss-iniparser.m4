# SS_CHECK_INIPARSER: find iniparser.  Debian's libiniparser-dev (4.1) ships
# no .pc file and puts the header in iniparser/; upstream 4.2+ has a .pc.
AC_DEFUN([SS_CHECK_INIPARSER], [
  PKG_CHECK_MODULES([INIPARSER], [iniparser >= 4.1],
    [AC_DEFINE([HAVE_INIPARSER_H], [1], [iniparser.h found through pkg-config])],
    [AC_CHECK_HEADERS([iniparser/iniparser.h iniparser.h], [break])
     AS_IF([test "x$ac_cv_header_iniparser_iniparser_h$ac_cv_header_iniparser_h" = "xnono"],
           [AC_MSG_ERROR([iniparser headers not found (Debian: apt-get install libiniparser-dev)])])
     AC_CHECK_LIB([iniparser], [iniparser_load], [INIPARSER_LIBS=-liniparser],
           [AC_MSG_ERROR([libiniparser not found (Debian: apt-get install libiniparser-dev)])])])
])
