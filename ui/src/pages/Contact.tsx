import { Clock, Mail } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ApiFailure, api, unwrap } from '../api/client';
import { Button } from '../components/ui/Button';
import { Input, TextArea } from '../components/ui/Input';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { useSubmit } from '../hooks/useSubmit';
import { validateContact, type ContactValues } from '../lib/validation';

/** The support hours: each row's day and hours are keys under `contact.hours.<id>`. */
export const SUPPORT_HOURS = ['weekdays', 'saturday', 'sunday'] as const;

const empty: ContactValues = { name: '', email: '', message: '' };

export default function Contact() {
  const { t } = useTranslation();
  const { toast } = useToast();
  const { data: site } = useSite();
  const [values, setValues] = useState<ContactValues>(empty);
  const submit = useSubmit(
    (signal) => unwrap(api.POST('/contact', { body: values, signal }), t('contact.sendError')),
    {
      failureTitle: t('contact.sendError'),
      check: () => {
        const found = validateContact(values);
        return Object.keys(found).length > 0 ? { fields: found } : null;
      },
      onSuccess: () => {
        toast({
          variant: 'success',
          title: t('contact.sent.title'),
          description: t('contact.sent.text'),
        });
        setValues(empty);
      },
      onFailure: (err, { setFieldErrors }) => {
        if (err instanceof ApiFailure && err.status === 400 && err.field && err.field in empty) {
          setFieldErrors({ [err.field]: err.message });
          return true;
        }
        // Too many messages: the server's own title and message.
        if (err instanceof ApiFailure && err.status === 429) return false;
        toast({ title: t('contact.sendError'), description: t('common.tryAgainLater') });
        return true;
      },
    },
  );
  const errors = submit.fieldErrors;

  const set = (field: keyof ContactValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    submit.clearFieldError(field);
  };

  return (
    <section className="mx-auto grid max-w-5xl gap-10 px-4 py-12 md:grid-cols-[3fr_2fr]">
      <div>
        <h1 className="text-3xl font-bold md:text-4xl">{t('contact.title')}</h1>
        <p className="mt-2 text-base-content/80">{t('contact.intro')}</p>
        <form className="mt-8 space-y-4" onSubmit={submit.onSubmit} noValidate>
          <Input
            label={t('contact.name')}
            error={errors.name}
            autoComplete="name"
            value={values.name}
            onChange={(e) => set('name')(e.target.value)}
          />
          <Input
            label={t('contact.email')}
            error={errors.email}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => set('email')(e.target.value)}
          />
          <TextArea
            label={t('contact.message')}
            error={errors.message}
            className="min-h-36"
            value={values.message}
            onChange={(e) => set('message')(e.target.value)}
          />
          <Button
            type="submit"
            className="w-full sm:w-auto"
            busy={submit.busy}
            busyLabel={t('contact.sending')}
          >
            {t('contact.send')}
          </Button>
        </form>
      </div>

      <aside className="space-y-6">
        <div className="card bg-base-200">
          <div className="card-body">
            <h2 className="card-title">
              <Mail aria-hidden size={20} /> {t('contact.email')}
            </h2>
            {site?.contactEmail ? (
              <a className="link link-primary break-all" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            ) : (
              <p className="text-base-content/80">{t('contact.noEmail')}</p>
            )}
          </div>
        </div>
        <div className="card bg-base-200">
          <div className="card-body">
            <h2 className="card-title">
              <Clock aria-hidden size={20} /> {t('contact.hours.title')}
            </h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              {SUPPORT_HOURS.map((id) => (
                <div key={id} className="contents">
                  <dt className="font-medium">{t(`contact.hours.${id}.day`)}</dt>
                  <dd>{t(`contact.hours.${id}.hours`)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </aside>
    </section>
  );
}
