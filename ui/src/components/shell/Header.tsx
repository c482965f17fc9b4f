import { LogOut, Menu, User as UserIcon, Users, X } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';

import { greetingName, useAuth } from '../../auth/auth-context';
import { useSignOut } from '../../hooks/useSignOut';
import { routes } from '../../routes';
import { CoParentAccess } from '../co-parents/CoParentAccess';
import { closeModal, keepFocusInside, showModal } from '../ui/dialog';
import { LogoMark, PRODUCT_NAME } from './Logo';
import { accountLinks, featureLinks } from './nav';

export function Header() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [coParentsOpen, setCoParentsOpen] = useState(false);
  const { state } = useAuth();
  const signOut = useSignOut();
  const signedIn = state.status === 'signedIn';
  // Only a signed-in parent manages co-parents; a guest's family shares nothing (spec section 6).
  const manager = signedIn && !state.user.isGuest;
  const signedOut = state.status === 'signedOut';
  const greeting = t('shell.header.greeting', { name: greetingName(state.user) });
  const closeButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    const opener = openButton.current;
    return () => {
      window.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [menuOpen]);

  const close = () => setMenuOpen(false);
  const navClass = ({ isActive }: { isActive: boolean }) =>
    `btn btn-ghost btn-sm font-medium ${isActive ? 'bg-primary/10 text-primary' : ''}`;

  return (
    <header className="print:hidden sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4">
        <Link
          to={routes.home}
          className="flex items-center gap-2 text-xl font-bold"
          aria-label={t('shell.header.home')}
        >
          <LogoMark />
          <span>{PRODUCT_NAME}</span>
        </Link>

        <nav
          aria-label={t('shell.header.mainNav')}
          className="ml-6 hidden items-center gap-1 md:flex"
        >
          {featureLinks.map((l) => (
            <NavLink key={l.to} to={l.to} className={navClass}>
              {t(l.labelKey)}
            </NavLink>
          ))}
        </nav>

        <div className="ml-auto hidden items-center gap-2 md:flex">
          {signedIn ? (
            <>
              <span className="mr-2 max-w-[16rem] truncate text-sm font-medium" title={greeting}>
                {greeting}
              </span>
              {manager ? (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => setCoParentsOpen(true)}
                >
                  <Users aria-hidden size={16} /> {t('shell.nav.coParents')}
                </button>
              ) : null}
              <Link to={routes.profile} className="btn btn-ghost btn-sm">
                <UserIcon aria-hidden size={16} /> {t('shell.nav.profile')}
              </Link>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => void signOut()}
              >
                <LogOut aria-hidden size={16} /> {t('shell.nav.logOut')}
              </button>
            </>
          ) : null}
          {signedOut
            ? accountLinks.map((l) => (
                <Link
                  key={l.to}
                  to={l.to}
                  className={`btn btn-sm ${l.primary ? 'btn-primary' : 'btn-ghost'}`}
                >
                  {t(l.labelKey)}
                </Link>
              ))
            : null}
        </div>

        <button
          ref={openButton}
          type="button"
          className="btn btn-ghost btn-square ml-auto md:hidden"
          aria-label={t('shell.header.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen(true)}
        >
          <Menu aria-hidden />
        </button>
      </div>

      {menuOpen ? (
        <MobileMenu onClose={close}>
          <div className="mb-2 flex items-center justify-between">
            <span className="flex items-center gap-2 text-lg font-bold">
              <LogoMark className="h-7 w-7" /> {PRODUCT_NAME}
            </span>
            <button
              ref={closeButton}
              type="button"
              className="btn btn-ghost btn-square btn-sm"
              aria-label={t('shell.header.closeMenu')}
              onClick={close}
            >
              <X aria-hidden />
            </button>
          </div>
          {signedIn ? <p className="px-1 font-medium">{greeting}</p> : null}
          <nav aria-label={t('shell.header.mobileNav')} className="flex flex-col gap-1">
            {featureLinks.map((l) => (
              <NavLink
                key={l.to}
                to={l.to}
                className="btn btn-ghost justify-start text-base"
                onClick={close}
              >
                {t(l.labelKey)}
              </NavLink>
            ))}
            {signedIn ? (
              <NavLink
                to={routes.children}
                className="btn btn-ghost justify-start text-base"
                onClick={close}
              >
                {t('shell.nav.children')}
              </NavLink>
            ) : null}
            {manager ? (
              <button
                type="button"
                className="btn btn-ghost justify-start text-base"
                onClick={() => {
                  close();
                  setCoParentsOpen(true);
                }}
              >
                {t('shell.nav.coParents')}
              </button>
            ) : null}
          </nav>
          <div className="mt-auto flex flex-col gap-2 border-t border-base-300 pt-4">
            {signedIn ? (
              <>
                <Link to={routes.profile} className="btn btn-outline" onClick={close}>
                  {t('shell.nav.profile')}
                </Link>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => {
                    close();
                    void signOut();
                  }}
                >
                  {t('shell.nav.logOut')}
                </button>
              </>
            ) : (
              accountLinks.map((l) => (
                <Link
                  key={l.to}
                  to={l.to}
                  className={`btn ${l.primary ? 'btn-primary' : 'btn-outline'}`}
                  onClick={close}
                >
                  {t(l.labelKey)}
                </Link>
              ))
            )}
          </div>
        </MobileMenu>
      ) : null}
      {/* In a portal, like the side menu: the header's backdrop blur would contain it. */}
      {manager
        ? createPortal(
            <CoParentAccess open={coParentsOpen} onClose={() => setCoParentsOpen(false)} />,
            document.body,
          )
        : null}
    </header>
  );
}

/**
 * The phone menu: a native modal <dialog> at the right edge, so the page behind is
 * inert and Tab stays inside. A click on the dimmed backdrop (the dialog element itself, outside
 * the panel) closes it, as does Escape. In a portal: the header's backdrop blur would otherwise
 * contain the panel.
 */
function MobileMenu({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    showModal(dialog);
    return () => closeModal(dialog);
  }, []);

  return createPortal(
    <dialog
      ref={ref}
      id="mobile-menu"
      aria-label={t('shell.header.menu')}
      className="fixed inset-y-0 left-auto right-0 m-0 h-dvh max-h-none w-72 max-w-[85vw] border-0 bg-base-100 p-0 text-base-content shadow-xl backdrop:bg-neutral/40"
      onKeyDown={keepFocusInside}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="flex h-full flex-col gap-2 p-4">{children}</div>
    </dialog>,
    document.body,
  );
}
