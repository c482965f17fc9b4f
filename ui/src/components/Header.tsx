import { LogOut, Menu, User as UserIcon, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, NavLink } from 'react-router-dom';

import { greetingName, useAuth } from '../auth/auth-context';
import { useSignOut } from '../hooks/useSignOut';
import { routes } from '../routes';
import { LogoMark } from './Logo';
import { accountLinks, featureLinks } from './nav';

export function Header() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { state } = useAuth();
  const signOut = useSignOut();
  const signedIn = state.status === 'signedIn';
  const signedOut = state.status === 'signedOut';
  const greeting = `Welcome, ${greetingName(state.user)}! 👋`;
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
    `btn btn-ghost btn-sm font-medium ${isActive ? 'text-primary' : ''}`;

  return (
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4">
        <Link
          to={routes.home}
          className="flex items-center gap-2 text-xl font-bold"
          aria-label="Highchair home"
        >
          <LogoMark />
          <span>Highchair</span>
        </Link>

        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
          {featureLinks.map((l) => (
            <NavLink key={l.to} to={l.to} className={navClass}>
              {l.label}
            </NavLink>
          ))}
        </nav>

        <div className="ml-auto hidden items-center gap-2 md:flex">
          {signedIn ? (
            <>
              <span className="mr-2 text-sm font-medium">{greeting}</span>
              <Link to={routes.profile} className="btn btn-ghost btn-sm">
                <UserIcon aria-hidden size={16} /> Profile
              </Link>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => void signOut()}
              >
                <LogOut aria-hidden size={16} /> Log Out
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
                  {l.label}
                </Link>
              ))
            : null}
        </div>

        <button
          ref={openButton}
          type="button"
          className="btn btn-ghost btn-square ml-auto md:hidden"
          aria-label="Open menu"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen(true)}
        >
          <Menu aria-hidden />
        </button>
      </div>

      {/* In a portal: the header's backdrop blur would otherwise contain the fixed overlay. */}
      {menuOpen
        ? createPortal(
            <div className="fixed inset-0 z-50 md:hidden">
              <button
                type="button"
                className="absolute inset-0 h-full w-full cursor-default bg-neutral/40"
                aria-label="Close menu"
                tabIndex={-1}
                onClick={close}
              />
              <div
                id="mobile-menu"
                role="dialog"
                aria-modal="true"
                aria-label="Menu"
                className="absolute inset-y-0 right-0 flex w-72 max-w-[85vw] flex-col gap-2 bg-base-100 p-4 shadow-xl"
              >
                <div className="mb-2 flex items-center justify-between">
                  <span className="flex items-center gap-2 text-lg font-bold">
                    <LogoMark className="h-7 w-7" /> Highchair
                  </span>
                  <button
                    ref={closeButton}
                    type="button"
                    className="btn btn-ghost btn-square btn-sm"
                    aria-label="Close menu"
                    onClick={close}
                  >
                    <X aria-hidden />
                  </button>
                </div>
                {signedIn ? <p className="px-1 font-medium">{greeting}</p> : null}
                <nav aria-label="Mobile" className="flex flex-col gap-1">
                  {featureLinks.map((l) => (
                    <NavLink
                      key={l.to}
                      to={l.to}
                      className="btn btn-ghost justify-start text-base"
                      onClick={close}
                    >
                      {l.label}
                    </NavLink>
                  ))}
                </nav>
                <div className="mt-auto flex flex-col gap-2 border-t border-base-300 pt-4">
                  {signedIn ? (
                    <>
                      <Link to={routes.profile} className="btn btn-outline" onClick={close}>
                        Profile
                      </Link>
                      <button
                        type="button"
                        className="btn btn-primary"
                        onClick={() => {
                          close();
                          void signOut();
                        }}
                      >
                        Log Out
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
                        {l.label}
                      </Link>
                    ))
                  )}
                </div>
              </div>
            </div>,
            document.body,
          )
        : null}
    </header>
  );
}
